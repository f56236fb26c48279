// Where the browser comes back after an OAuth sign-in: a one-request listener on 127.0.0.1 (RFC 8252's loopback
// redirect for native apps) on a port of the system's choosing, answering /callback once. The `state` check
// keeps another page from completing someone else's sign-in; the listener closes as soon as it has its answer,
// or when the sign-in is given up.

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackCallback {
  /** http://127.0.0.1:PORT/callback */
  readonly redirectUrl: string;
  /** The authorization code; rejects with the server's error, on timeout or when closed first. */
  readonly code: Promise<string>;
  close(): void;
}

export interface LoopbackCallbackOptions {
  state: string;
  /** What the page says once the code arrived, e.g. the server's name. */
  serverName: string;
  timeoutMs: number;
  port?: number;
}

export async function openLoopbackCallback(options: LoopbackCallbackOptions): Promise<LoopbackCallback> {
  let settle!: { resolve(code: string): void; reject(error: Error): void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  code.catch(() => undefined); // whoever awaits it sees the failure; nobody may be awaiting yet
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      page(response, 404, 'Not found.');
      return;
    }
    if (url.searchParams.get('state') !== options.state) {
      page(response, 400, 'This sign-in link is not the one Switchyard is waiting for. Start the sign-in again.');
      return;
    }
    const error = url.searchParams.get('error');
    if (error) {
      const description = url.searchParams.get('error_description');
      page(response, 400, `Sign-in to ${options.serverName} failed: ${error}. You can close this tab.`);
      finish(() =>
        settle.reject(new Error(`the authorization server answered ${error}${description ? `: ${description}` : ''}`)),
      );
      return;
    }
    const received = url.searchParams.get('code');
    if (!received) {
      page(response, 400, 'The authorization server sent no code. Start the sign-in again.');
      return;
    }
    page(response, 200, `Signed in to ${options.serverName}. You can close this tab and return to Switchyard.`);
    finish(() => settle.resolve(received));
  });
  const timer = setTimeout(
    () => finish(() => settle.reject(new Error(`no answer from the browser within ${options.timeoutMs / 1000} s`))),
    options.timeoutMs,
  );
  timer.unref();
  let finished = false;
  function finish(outcome: () => void): void {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    outcome();
    server.close();
    server.closeIdleConnections();
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    code,
    close: () => finish(() => settle.reject(new Error('the sign-in was cancelled'))),
  };
}

function page(response: ServerResponse, status: number, text: string): void {
  const escaped = text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'",
    'cache-control': 'no-store',
  });
  response.end(`<!doctype html><meta charset="utf-8"><title>Switchyard</title><p>${escaped}</p>`);
}
