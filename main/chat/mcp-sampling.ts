// A server's sampling request answered by a model through Switchyard's gateway, the way the chat calls models
// (gateway-client.ts: routing, retries, key limits, the usage log): MCP's CreateMessageRequest becomes a chat
// completion, and its answer a CreateMessageResult. The usage log counts it under the app "<server> (MCP
// sampling)", so that what each server spent shows by app. Which model, and whether the person is asked first, is
// decided before (main/mcp/sampling.ts).

import type { CreateMessageRequestParams, SamplingMessageContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { chatRequestSchema, type ChatMessage, type ChatRequest, type ContentPart } from '../../shared/api/index.js';
import { samplingFailed, samplingInvalid, type SamplingModels } from '../mcp/index.js';
import type { ChatGateway } from './gateway-client.js';
import { ReplyAccumulator } from './reply-accumulator.js';

export function samplingAppTitle(server: string): string {
  return `${server} (MCP sampling)`;
}

export function createGatewaySampling(gateway: ChatGateway, models: () => Promise<string[]>): SamplingModels {
  return {
    available: models,
    async complete({ server, params }, model, signal) {
      const request = toChatRequest(params, model);
      const reply = new ReplyAccumulator();
      try {
        for await (const chunk of gateway.stream(request, signal, samplingAppTitle(server))) reply.accept(chunk);
      } catch (error) {
        if (signal.aborted) throw error;
        throw samplingFailed(`${model} could not answer: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (reply.error) throw samplingFailed(`${model} could not answer: ${reply.error}`);
      return {
        role: 'assistant',
        content: { type: 'text', text: reply.text },
        model,
        stopReason: stopReasonOf(reply.finishReason),
      };
    },
  };
}

/** The chat completion for a sampling request; throws InvalidParams for what a chat completion cannot carry. */
export function toChatRequest(params: CreateMessageRequestParams, model: string): Omit<ChatRequest, 'stream'> {
  if (params.tools?.length) throw samplingInvalid('Switchyard does not offer tools in sampling requests.');
  const messages: ChatMessage[] = params.messages.map((message, index) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const parts = blocks.map((block) => toContentPart(block, `messages[${index}]`));
    if (message.role === 'assistant' && parts.some((part) => part.type !== 'text')) {
      throw samplingInvalid(`messages[${index}]: only user messages may carry images or audio.`);
    }
    const allText = parts.every((part) => part.type === 'text');
    return allText
      ? { role: message.role, content: parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n') }
      : { role: message.role, content: parts };
  });
  const request = {
    model,
    messages: params.systemPrompt ? [{ role: 'system' as const, content: params.systemPrompt }, ...messages] : messages,
    max_tokens: params.maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.stopSequences?.length ? { stop: params.stopSequences } : {}),
  };
  const checked = chatRequestSchema.safeParse(request);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw samplingInvalid(`The sampling request cannot be sent to a model: ${where}${issue?.message ?? 'invalid'}.`);
  }
  return request;
}

function toContentPart(block: SamplingMessageContentBlock, where: string): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image_url', image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
    case 'audio':
      return { type: 'input_audio', input_audio: { data: block.data, format: audioFormatOf(block.mimeType) } };
    default:
      throw samplingInvalid(
        `${where}: ${block.type} content is not supported (Switchyard offers no tools in sampling).`,
      );
  }
}

/** `audio/wav` → `wav`, `audio/mpeg` → `mp3`, as OpenAI's input_audio names formats. */
function audioFormatOf(mimeType: string): string {
  const subtype = mimeType.split('/')[1]?.split(';')[0]?.toLowerCase() ?? '';
  return subtype === 'mpeg' ? 'mp3' : subtype.replace(/^x-/, '');
}

/** A chat completion's finish reason in MCP's words; others pass through as the specification allows. */
function stopReasonOf(finishReason: string | null): string | undefined {
  if (finishReason === null) return undefined;
  if (finishReason === 'stop') return 'endTurn';
  if (finishReason === 'length') return 'maxTokens';
  return finishReason;
}
