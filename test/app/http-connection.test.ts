// Whether a browser tab's server answers, against a real HTTP server on 127.0.0.1 that the test stops and starts:
// a failed call only raises a check (no warning while the server still answers it), a stopped server becomes
// unreachable, it is asked again on its own and becomes reachable when it is back, and the check's status goes to
// whoever handles the sign-in.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { createHttpConnection } from '../../shared/bridge/http-connection.js';

let server: http.Server | undefined;
let status = 200;

async function listen(port = 0): Promise<number> {
  server = http.createServer((_request, response) => response.writeHead(status).end());
  await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function stop(): Promise<void> {
  const closing = server;
  server = undefined;
  if (closing) await new Promise((resolve) => closing.close(resolve));
}

afterEach(stop);

describe('the connection to a tab’s server', () => {
  it('only checks after a failure the server itself answers: never unreachable', async () => {
    const port = await listen();
    const connection = createHttpConnection({ probeUrl: `http://127.0.0.1:${port}/bridge/session` });
    const seen: string[] = [];
    connection.subscribe(() => seen.push(connection.state()));
    connection.suspect();
    expect(connection.state()).toBe('checking');
    await waitFor(() => connection.state() === 'reachable' || undefined, { what: 'reachable again' });
    expect(seen).toEqual(['checking', 'reachable']);
  });

  it('is unreachable while the server is stopped, and reachable again by itself when it is back', async () => {
    const port = await listen();
    const answers: number[] = [];
    const connection = createHttpConnection({
      probeUrl: `http://127.0.0.1:${port}/bridge/session`,
      retryMs: 50,
      onProbeAnswer: (answered) => answers.push(answered),
    });
    await stop();
    connection.suspect();
    await waitFor(() => connection.state() === 'unreachable' || undefined, { what: 'unreachable' });
    // The sign-in went with the restart: the check's 401 is handed on.
    status = 401;
    await listen(port);
    await waitFor(() => connection.state() === 'reachable' || undefined, { what: 'reachable again' });
    expect(answers).toEqual([401]);
  });

  it('is reachable at once when a call gets an answer while it checks', async () => {
    const connection = createHttpConnection({ probeUrl: 'http://127.0.0.1:9/bridge/session', retryMs: 50 });
    connection.suspect();
    await waitFor(() => connection.state() === 'unreachable' || undefined, { what: 'unreachable' });
    connection.answered();
    expect(connection.state()).toBe('reachable');
    // The checks stopped: it stays reachable.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(connection.state()).toBe('reachable');
  });
});
