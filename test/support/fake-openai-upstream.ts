// The fake OpenAI upstream configured by one options object that is read at every request, so a test can change
// the usage, hold streams, slow them down or break them on the fly: "Hello!" in three pieces unless told otherwise.
// Used where the upstream is a provider of a whole app (accounts, the CLI end to end, the bridge, the browser).

import { answer, FakeOpenAI } from './fake-openai.js';

export interface FakeUpstreamOptions {
  models?: string[];
  /** Pieces of the streamed answer; default "Hello!" in three. */
  pieces?: string[];
  /** Delay between streamed pieces, for tests that need a stream in flight. */
  pieceDelayMs?: number;
  /** Instead of {prompt_tokens: 11, completion_tokens: <pieces>} (e.g. with cached tokens or cost). */
  usage?: Record<string, unknown>;
  /** Streams everything, the usage chunk included, then garbage instead of `[DONE]`: a mid-stream failure after usage. */
  failAfterUsage?: boolean;
  /** When set, answers start only once it resolves: keeps many requests in flight at once, deterministically. */
  gate?: Promise<void>;
}

export type FakeUpstream = FakeOpenAI;

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const fake = new FakeOpenAI({
    models: options.models ?? ['echo-1'],
    fallback: async (request) => {
      await options.gate;
      const pieces = options.pieces ?? ['Hel', 'lo', '!'];
      return answer({
        content: pieces,
        chunkDelayMs: options.pieceDelayMs ?? 0,
        usage: options.usage ?? {
          prompt_tokens: 11,
          completion_tokens: pieces.length,
          total_tokens: 11 + pieces.length,
        },
        ending: options.failAfterUsage ? 'garbage-after-usage' : 'done',
      })(request);
    },
  });
  await fake.start();
  return fake;
}
