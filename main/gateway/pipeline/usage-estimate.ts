// Token counts for a stream the caller left before the upstream reported its usage: the upstream still billed the
// prompt and what it generated, so the usage log and the spend limits must not see 0 tokens and $0. An estimate
// with OpenAI's o200k tokenizer (gpt-tokenizer: pure JavaScript, no download) over the prompt's text, the tools'
// definitions and the text streamed so far; other providers' tokenizers differ by some percent, which is why the
// row says it is an estimate. The same counts answer Anthropic's and Gemini's count-tokens calls.
//
// The counting runs in a worker thread, started at the first count: loading the tokenizer's tables is 80–120 ms
// of synchronous work and an agent's prompt (its tools and system prompt) takes milliseconds more to count, and on
// the gateway's thread either would stall every request in flight (a caller's disconnect took 70–138 ms to reach
// the upstream while the tables loaded). The worker never keeps the process alive. Where no worker can run or load
// the tokenizer, the counting happens on this thread, as it did before.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ChatRequest, LegacyCompletionRequest, Usage } from '../../../shared/api/index.js';

/** What chat formats add per message (role, separators), as OpenAI counts it. */
const tokensPerMessage = 3;
/** What primes the assistant's reply. */
const replyPriming = 3;

/** Texts whose token counts are summed: one total per group. */
export type TextGroups = readonly (readonly string[])[];

/** One total per group: the sum of its texts' counts. Also the worker's, by its source text. */
const countGroups = (groups: TextGroups, count: (text: string) => number): number[] =>
  groups.map((texts) => texts.reduce((sum, text) => sum + count(text), 0));

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const countGroups = ${countGroups.toString()};
let countTokens;
parentPort.on('message', ({ id, groups }) => {
  try {
    countTokens ??= require(workerData.tokenizerPath).countTokens;
    const counts = countGroups(groups, countTokens);
    parentPort.postMessage({ id, counts });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
`;

interface Answer {
  id: number;
  counts?: number[];
  error?: string;
}

class CountingWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(counts: number[]): void; reject(error: Error): void }>();
  private nextId = 0;

  constructor(onFailure: () => void) {
    // CommonJS, so that the worker can require() it by path (in a packaged app, a file inside the app's archive).
    const tokenizerPath = createRequire(import.meta.url).resolve('gpt-tokenizer/encoding/o200k_base');
    this.worker = new Worker(workerSource, { eval: true, workerData: { tokenizerPath } });
    this.worker.on('message', ({ id, counts, error }: Answer) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (this.pending.size === 0) this.worker.unref();
      if (counts) waiting?.resolve(counts);
      else waiting?.reject(new Error(error ?? 'the token counter failed'));
    });
    const fail = (error: Error) => {
      onFailure();
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', () => fail(new Error('the token counter stopped')));
    // Referenced only while a count is awaited (after the listeners: adding a 'message' listener refs the worker's
    // port again): an idle worker must not keep the process running after serve has stopped, and a process with
    // nothing else to do must not exit before its count is answered.
    this.worker.unref();
  }

  count(groups: TextGroups): Promise<number[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, groups });
    });
  }
}

let worker: CountingWorker | null = null;
let workerFailed = false;
let inThread: Promise<(text: string) => number> | undefined;

function countHere(groups: TextGroups): Promise<number[]> {
  inThread ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => (text: string) => module.countTokens(text));
  return inThread.then((count) => countGroups(groups, count));
}

/** From now on, counts are made on this thread: the worker could not start, load the tokenizer, or stopped. */
function giveUpWorker(): void {
  workerFailed = true;
  worker = null;
}

/** The o200k token count of each group of texts (summed within a group), counted off this thread. */
export async function countTokenGroups(groups: TextGroups): Promise<number[]> {
  if (!workerFailed) {
    try {
      worker ??= new CountingWorker(giveUpWorker);
      return await worker.count(groups);
    } catch {
      giveUpWorker();
    }
  }
  return countHere(groups);
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

/** Generated text kept for an estimate; beyond it, text is only measured and the count scaled up. */
export const maxKeptGeneratedChars = 256 * 1024;

/**
 * What a stream generated so far (content, reasoning, tool calls), for an estimate when its caller leaves. The text
 * is kept up to maxKeptGeneratedChars and only measured beyond that: a stream that runs for hours would otherwise
 * hold all of it, and counting it all when the caller left took the token counter hundreds of MB.
 */
export class GeneratedText {
  /** The pieces kept, the last one possibly cut. */
  readonly pieces: string[] = [];
  /** How many pieces were pushed (kept or not): grows whenever anything was generated. */
  length = 0;
  private keptChars = 0;
  private totalChars = 0;

  static of(...texts: string[]): GeneratedText {
    const generated = new GeneratedText();
    generated.push(...texts);
    return generated;
  }

  push(...texts: string[]): number {
    for (const text of texts) {
      this.length += 1;
      this.totalChars += text.length;
      const room = maxKeptGeneratedChars - this.keptChars;
      if (room <= 0) continue;
      const kept = text.length <= room ? text : text.slice(0, room);
      this.pieces.push(kept);
      this.keptChars += kept.length;
    }
    return this.length;
  }

  /** The kept text's token count, scaled to all the text generated. */
  scaled(keptTokens: number): number {
    return this.keptChars === 0 ? 0 : Math.round((keptTokens * this.totalChars) / this.keptChars);
  }
}

/** Estimated usage of a prompt of `texts` (plus `extraPromptTokens`) whose answer so far is `generated`. */
async function estimate(texts: string[], extraPromptTokens: number, generated: GeneratedText): Promise<Usage> {
  const completionText = generated.pieces.join('');
  const [promptCount = 0, keptTokens = 0] = await countTokenGroups([
    texts,
    completionText === '' ? [] : [completionText],
  ]);
  const prompt = promptCount + extraPromptTokens;
  const completion = generated.scaled(keptTokens);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Estimated usage of a chat request whose answer so far is `generated` (content, reasoning, tool arguments). */
export function estimateUsage(
  request: Pick<ChatRequest, 'messages' | 'tools'>,
  generated: GeneratedText,
): Promise<Usage> {
  return estimate(promptTexts(request), tokensPerMessage * request.messages.length + replyPriming, generated);
}

/** Estimated usage of a legacy completion (its prompt's texts and token ids, its suffix) answered `generated`. */
export function estimateCompletionUsage(
  request: Pick<LegacyCompletionRequest, 'prompt' | 'suffix'>,
  generated: GeneratedText,
): Promise<Usage> {
  const prompts = typeof request.prompt === 'string' ? [request.prompt] : request.prompt;
  const texts = prompts.filter((prompt): prompt is string => typeof prompt === 'string');
  const tokenIds = prompts.flat().filter((prompt) => typeof prompt === 'number').length;
  return estimate(request.suffix ? [...texts, request.suffix] : texts, tokenIds, generated);
}
