// How the chat reaches the model: over HTTP, through the app's own gateway at its loopback address, exactly like
// any other caller (validation, routing, retries, credits and key limits, the usage log with app "Switchyard
// Chat"). A direct in-process call would have to copy that pipeline or reach into the gateway's internals;
// loopback HTTP costs well under a millisecond per request, and streams arrive chunk by chunk.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ChatCompletionChunk, ChatRequest } from '../../shared/api/index.js';
import { noCreditsError } from '../../shared/bridge/chat-message.js';
import { ChatError, explainFailure } from './chat-error.js';

export const chatAppTitle = 'Switchyard Chat';

/** What the tool loop needs from the gateway: one streamed completion, as chunks. */
export interface ChatGateway {
  /** `appTitle`: the app the usage log counts the request under (default "Switchyard Chat"). */
  stream(
    request: Omit<ChatRequest, 'stream'>,
    signal: AbortSignal,
    appTitle?: string,
  ): AsyncIterable<ChatCompletionChunk>;
}

export interface HttpChatGatewayOptions {
  /** The gateway's base URL (…/api/v1), or null while it does not listen. */
  baseUrl: () => string | null;
  apiKey: () => Promise<string>;
  /** Called once after a 401, for a fresh key. */
  renewApiKey: () => Promise<string>;
}

export function createHttpChatGateway(options: HttpChatGatewayOptions): ChatGateway {
  async function post(request: object, apiKey: string, signal: AbortSignal, appTitle: string): Promise<Response> {
    const baseUrl = options.baseUrl();
    if (!baseUrl) {
      throw new ChatError(
        'unavailable',
        'The gateway is not running, so the chat cannot reach a model: the Gateway screen says why it could not ' +
          'start (see the log), and restarting Switchyard starts it again.',
      );
    }
    return fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'x-title': appTitle,
      },
      body: JSON.stringify({ ...request, stream: true }),
      signal,
    }).catch((error: unknown) => {
      if (signal.aborted) throw error;
      throw new ChatError(
        'unavailable',
        `Switchyard's gateway at ${baseUrl} did not answer: check on the Gateway screen that it is listening, ` +
          'then try again (Regenerate).',
      );
    });
  }

  return {
    async *stream(request, signal, appTitle = chatAppTitle) {
      let response = await post(request, await options.apiKey(), signal, appTitle);
      if (response.status === 401) {
        await response.body?.cancel();
        response = await post(request, await options.renewApiKey(), signal, appTitle);
      }
      if (!response.ok || !response.body) throw new ChatError('unavailable', await describeFailure(response));
      yield* readChunks(response.body, signal);
    },
  };
}

async function describeFailure(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const error = (
      JSON.parse(text) as { error?: { message?: unknown; metadata?: { balance?: unknown; provider_name?: unknown } } }
    ).error;
    // The gateway's own refusal for lack of credits carries the balance (an upstream's 402 does not): its
    // message points to the CLI, the app's to the Activity screen.
    if (response.status === 402 && typeof error?.metadata?.balance === 'number') return noCreditsError;
    if (typeof error?.message === 'string') {
      const provider = error.metadata?.provider_name;
      return explainFailure({
        status: response.status,
        message: error.message,
        provider: typeof provider === 'string' ? provider : null,
      });
    }
  } catch {
    // not our envelope: fall through to the status
  }
  return explainFailure({
    status: response.status,
    message: `The gateway answered ${response.status} ${response.statusText}.`,
  });
}

/** The `data:` payloads of an SSE body as chunks, until `[DONE]`. */
export async function* readChunks(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<ChatCompletionChunk> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      for (const event of pending.splice(0)) {
        if (event.data === '[DONE]') return;
        let chunk: ChatCompletionChunk;
        try {
          chunk = JSON.parse(event.data) as ChatCompletionChunk;
        } catch {
          throw new ChatError('unavailable', 'The gateway sent a malformed stream chunk.');
        }
        yield chunk;
      }
    }
    throw new ChatError('unavailable', 'The stream ended before the answer was complete: try again (Regenerate).');
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
