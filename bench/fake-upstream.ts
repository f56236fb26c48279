// The benchmark's upstream: the tests' fake OpenAI upstream with fixed latencies per model (bench/workloads.ts),
// run in its own process so that it does not share an event loop with the gateway or the load generator. It keeps
// no requests, and every answer is prepared once (see `answer`): a request costs one JSON.parse and a few timers.
//
//   node --import tsx bench/fake-upstream.ts [port]     prints `listening <port>` once ready

import { answer, FakeOpenAI, type Step } from '../test/support/fake-openai.js';
import { profileDurationMs, profiles, type ProfileName } from './workloads.js';

const words = ['Hello', ' there', ',', ' this', ' is', ' a', ' fixed', ' benchmark', ' reply', '.'];
const usage = { prompt_tokens: 31, completion_tokens: 10, total_tokens: 41 };

/** Streams: the first chunk after `firstTokenMs`, then one every `chunkIntervalMs`; whole answers after all that. */
function profileStep(name: ProfileName): Step {
  const profile = profiles[name];
  const content = Array.from({ length: profile.contentChunks }, (_, index) => words[index % words.length]!);
  const streamed = answer({
    content,
    usage,
    firstChunkAfterMs: profile.firstTokenMs,
    // 0: all chunks in one go (a pause of 0 would still wait for the next turn of the timers).
    ...(profile.chunkIntervalMs > 0 ? { chunkDelayMs: profile.chunkIntervalMs } : {}),
  });
  const whole = answer({ content, usage, headersAfterMs: profileDurationMs(profile) });
  return (request) => (request.body?.stream === true ? streamed(request) : whole(request));
}

const names = Object.keys(profiles) as ProfileName[];
const upstream = new FakeOpenAI({
  models: names,
  byModel: Object.fromEntries(names.map((name) => [name, profileStep(name)])),
  record: false,
});

const baseUrl = await upstream.start(Number(process.argv[2] ?? 0));
process.stdout.write(`listening ${new URL(baseUrl).port}\n`);
process.on('SIGTERM', () => {
  // How many connections callers opened: a gateway that pools upstream connections opens few.
  process.stdout.write(`connections ${upstream.connections}\n`);
  void upstream.close().then(() => process.exit(0));
});
