// The three kinds of upstream (test/support/three-kinds.ts) for the official @anthropic-ai/sdk at the gateway's
// root (the SDK adds /v1). The OpenAI fake answers a request that offers tools and answers none with reasoning, text
// and a tool call, anything else with text.

import Anthropic from '@anthropic-ai/sdk';
import { answer } from '../../support/fake-openai.js';
import type { Step } from '../../support/recording-server.js';
import { startThreeKinds, type ThreeKinds } from '../../support/three-kinds.js';

export { anthropicModel, geminiModel, openaiModel } from '../../support/three-kinds.js';

export const callerSecret = 'sk-sy-v1-anthropic-protocol-caller';

const toolTurn = answer({
  reasoning: ['Thinking about ', 'the weather.'],
  content: ['Let me check.'],
  toolCalls: [{ id: 'call_weather_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
  usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
});
const textTurn = answer('answer from gpt', { usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 } });

/** A tool call when tools are offered and none was answered yet, else text. */
const openaiTurn: Step = (request) => {
  const body = request.body as { tools?: unknown; messages?: { role: string }[] };
  const answered = body.messages?.at(-1)?.role === 'tool';
  return Array.isArray(body.tools) && !answered ? toolTurn(request) : textTurn(request);
};

export interface AnthropicHarness extends ThreeKinds {
  client: Anthropic;
  /** The gateway's root (the SDK's base URL). */
  root: string;
}

/** `keepAliveMs`: how long the gateway waits for an upstream before it opens the stream with pings. */
export async function startAnthropicHarness(options: { keepAliveMs?: number } = {}): Promise<AnthropicHarness> {
  const kinds = await startThreeKinds({
    callers: { 'key-1': callerSecret },
    openaiFallback: openaiTurn,
    keepAliveMs: options.keepAliveMs,
  });
  const root = kinds.served.baseURL.replace(/\/api\/v1$/, '');
  return { ...kinds, client: new Anthropic({ baseURL: root, apiKey: callerSecret, maxRetries: 0 }), root };
}
