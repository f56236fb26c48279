// Token counts for a stream the caller left before the upstream reported its usage: the upstream still billed the
// prompt and what it generated, so the usage log and the spend limits must not see 0 tokens and $0. An estimate
// with OpenAI's o200k tokenizer (gpt-tokenizer: pure JavaScript, no download) over the prompt's text, the tools'
// definitions and the text streamed so far; other providers' tokenizers differ by some percent, which is why the
// row says it is an estimate. The tokenizer's tables are loaded on the first estimate, not at start.

import type { ChatRequest, Usage } from '../../shared/api/index.js';

/** What chat formats add per message (role, separators), as OpenAI counts it. */
const tokensPerMessage = 3;
/** What primes the assistant's reply. */
const replyPriming = 3;

let counter: Promise<(text: string) => number> | undefined;

/** The o200k token count of a text, once the tokenizer is loaded (also for the MCP screen's tool-schema costs). */
export function countTokens(): Promise<(text: string) => number> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => (text: string) => module.countTokens(text));
  return counter;
}

/** The text of a request the upstream reads: message texts, tool calls and results, tool definitions. */
function promptTexts(request: Pick<ChatRequest, 'messages' | 'tools'>): string[] {
  const texts: string[] = [];
  for (const message of request.messages) {
    texts.push(message.role);
    if (typeof message.content === 'string') texts.push(message.content);
    else for (const part of message.content ?? []) if (part.type === 'text') texts.push(part.text);
    for (const call of message.tool_calls ?? []) texts.push(call.function.name, call.function.arguments);
  }
  if (request.tools?.length) texts.push(JSON.stringify(request.tools));
  return texts;
}

/** Estimated usage of a request whose answer so far is `completionPieces` (content, reasoning, tool arguments). */
export async function estimateUsage(
  request: Pick<ChatRequest, 'messages' | 'tools'>,
  completionPieces: readonly string[],
): Promise<Usage> {
  const count = await countTokens();
  const prompt =
    promptTexts(request).reduce((sum, text) => sum + count(text), 0) +
    tokensPerMessage * request.messages.length +
    replyPriming;
  const completion = completionPieces.length === 0 ? 0 : count(completionPieces.join(''));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
