// The tool calls one server is running, so that a question it asks (elicitation) or a model call it requests
// (sampling) reaches the caller it belongs to. The protocol does not say which call a request comes during (the
// SDK's client is not told), so it is passed on only when exactly one call is in flight; with none or several it is
// declined rather than shown to a caller it may not belong to.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type CreateMessageRequest,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { LogBuffer } from './log-buffer.js';
import { samplingRefused } from './sampling-errors.js';
import type { ElicitationHandler, ElicitationRequest, SamplingHandler, ToolCallOptions } from './types.js';

/**
 * Any `sampling/createMessage`, for registering answerSampling: the SDK's client checks the params itself and
 * answers InvalidParams, but only when the schema its handler is registered with let the request through (a strict
 * one would fail first, as an InternalError).
 */
const anyCreateMessageRequest = z.looseObject({
  method: z.literal('sampling/createMessage'),
  params: z.unknown(),
});

interface CallInFlight {
  onElicitation?: ElicitationHandler;
  onSampling?: SamplingHandler;
  /** Aborted when the call ends: a question asked during it no longer stands. */
  ended: AbortController;
}

export class ToolCallsInFlight {
  private readonly calls = new Set<CallInFlight>();

  /**
   * `fallback`: answers questions during calls that brought no handler of their own; unset: they are declined.
   * `samplingFallback`: the same for sampling requests; unset: they are refused.
   */
  constructor(
    private readonly server: () => string,
    private readonly log: LogBuffer,
    private readonly fallback: ElicitationHandler | undefined,
    private readonly samplingFallback?: SamplingHandler,
  ) {}

  /**
   * The MCP client for one session of this server, declaring what it answers and answering it for the call in
   * flight. Form elicitation only: URL mode sends people to pages we cannot vouch for; an accepted form gets the
   * schema's defaults for the fields left out (SEP-1034), as the SDK's client applies them when asked to. Sampling
   * without tools.
   */
  newClient(clientInfo: { name: string; version: string }): Client {
    const client = new Client(clientInfo, {
      capabilities: { elicitation: { form: { applyDefaults: true } }, sampling: {} },
    });
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => this.answerElicitation(request, extra.signal));
    client.setRequestHandler(anyCreateMessageRequest, (request, extra) =>
      this.answerSampling(CreateMessageRequestSchema.parse(request), extra.signal),
    );
    return client;
  }

  /** Runs one call, counted in flight until it ends. */
  async run<T>(options: ToolCallOptions, call: () => Promise<T>): Promise<T> {
    const inFlight: CallInFlight = {
      ended: new AbortController(),
      ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
      ...(options.onSampling ? { onSampling: options.onSampling } : {}),
    };
    this.calls.add(inFlight);
    try {
      return await call();
    } finally {
      this.calls.delete(inFlight);
      inFlight.ended.abort();
    }
  }

  async answerElicitation(request: ElicitRequest, signal: AbortSignal): Promise<ElicitResult> {
    const params = request.params;
    if (params.mode === 'url') return { action: 'decline' };
    const { call, why } = this.soleCall();
    const handler = call?.onElicitation ?? this.fallback;
    if (!call || !handler) {
      this.log.add('switchyard', `Declined a question from the server (elicitation): ${why}.`);
      return { action: 'decline' };
    }
    const question: ElicitationRequest = {
      server: this.server(),
      message: params.message,
      requestedSchema: params.requestedSchema as ElicitationRequest['requestedSchema'],
    };
    return handler(question, AbortSignal.any([signal, call.ended.signal]));
  }

  /** Throws an McpError (which the SDK sends back as the JSON-RPC error) when there is nobody to answer. */
  async answerSampling(request: CreateMessageRequest, signal: AbortSignal): ReturnType<SamplingHandler> {
    const { call, why } = this.soleCall();
    const handler = call?.onSampling ?? this.samplingFallback;
    if (!call || !handler) {
      const reason = call ? 'Switchyard has no model to answer it with here' : why;
      this.log.add('switchyard', `Refused a sampling request from the server: ${reason}.`);
      throw samplingRefused(`Switchyard refused the sampling request: ${reason}.`);
    }
    return handler({ server: this.server(), params: request.params }, AbortSignal.any([signal, call.ended.signal]));
  }

  /** The one call in flight, or why there is not exactly one. */
  private soleCall(): { call?: CallInFlight; why: string } {
    const calls = [...this.calls];
    if (calls.length === 1) return { call: calls[0]!, why: 'nobody is there to answer it' };
    if (calls.length === 0) return { why: 'no tool call of ours was running' };
    return { why: `${calls.length} tool calls were running, and it could belong to any of them` };
  }
}
