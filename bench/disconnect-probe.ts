// How fast a caller's disconnect reaches the upstream: an upstream in this process streams forever; a caller in
// this process reads the first chunk through the gateway and destroys its connection; the upstream notes when
// its request closed. One clock for both ends, so the difference is exact.

import { request } from 'node:http';
import { answer, FakeOpenAI } from '../test/support/fake-openai.js';
import { waitFor } from '../test/support/wait-for.js';

/** An upstream whose model `forever` streams a chunk every 20 ms for a minute: longer than any trial. */
export function probeUpstream(): FakeOpenAI {
  const forever = answer({
    content: ['first', ...Array<string>(3_000).fill('more')],
    chunkDelayMs: 20,
    form: 'stream',
  });
  return new FakeOpenAI({ models: ['forever'], byModel: { forever }, record: (seen) => seen.method === 'POST' });
}

/** One trial: ms from the caller destroying its connection to the upstream seeing its request close. */
export async function measureDisconnect(probe: FakeOpenAI, gatewayUrl: string, apiKey: string): Promise<number> {
  const seen = probe.requests.length;
  const leftAt = await new Promise<number>((resolve, reject) => {
    const outgoing = request(`${gatewayUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    });
    outgoing.on('error', () => undefined);
    outgoing.on('response', (response) => {
      if (response.statusCode !== 200) reject(new Error(`the probe stream answered ${response.statusCode}`));
      response.once('data', () => {
        const at = performance.now();
        outgoing.destroy();
        resolve(at);
      });
    });
    outgoing.end(JSON.stringify({ model: 'probe/forever', messages: [{ role: 'user', content: 'go on' }] }));
  });
  const upstreamRequest = await waitFor(() => probe.requests[seen], { what: 'the probe request upstream' });
  return (await upstreamRequest.closed) - leftAt;
}
