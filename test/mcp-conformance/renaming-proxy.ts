// A small HTTP proxy on 127.0.0.1 in front of the hub's `/mcp`, for the conformance suite's server scenarios: the
// scenarios call tools and prompts by exact names (test_simple_text), which the hub shows as `<server>__<name>`.
// The proxy adds the gateway key and renames both ways — the prefix added to names in requests (tools/call,
// prompts/get, a prompt's completion reference) and removed from names in answers (tools/list, prompts/list) —
// a mapping of the test's own, not a hub option. Everything else passes as it came: Host and Origin unchanged (so
// the hub's DNS-rebinding check is what the suite tests), SSE streams event by event as they arrive.

import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RenamingProxy {
  /** The proxy's MCP endpoint, http://127.0.0.1:<port>/mcp. */
  url: string;
  /** Where requests go from now on: the hub's `/mcp` URL. */
  forwardTo(target: string): void;
  close(): Promise<void>;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The names a scenario gives, prefixed as the hub shows them. */
export function prefixRequestNames(message: unknown, prefix: string): unknown {
  if (Array.isArray(message)) return message.map((item) => prefixRequestNames(item, prefix));
  if (!isObject(message) || !isObject(message.params)) return message;
  const params = message.params;
  const prefixed = (name: unknown) => (typeof name === 'string' ? `${prefix}${name}` : name);
  if (message.method === 'tools/call' || message.method === 'prompts/get') {
    return { ...message, params: { ...params, name: prefixed(params.name) } };
  }
  if (message.method === 'completion/complete' && isObject(params.ref) && params.ref.type === 'ref/prompt') {
    return { ...message, params: { ...params, ref: { ...params.ref, name: prefixed(params.ref.name) } } };
  }
  return message;
}

/** The hub's listed names, without the prefix the scenarios do not expect. */
export function unprefixListedNames(message: unknown, prefix: string): unknown {
  if (Array.isArray(message)) return message.map((item) => unprefixListedNames(item, prefix));
  if (!isObject(message) || !isObject(message.result)) return message;
  const result = { ...message.result };
  for (const list of ['tools', 'prompts']) {
    const items = result[list];
    if (!Array.isArray(items)) continue;
    result[list] = items.map((item: unknown) =>
      isObject(item) && typeof item.name === 'string' && item.name.startsWith(prefix)
        ? { ...item, name: item.name.slice(prefix.length) }
        : item,
    );
  }
  return { ...message, result };
}

function rewriteJson(text: string, rewrite: (message: unknown) => unknown): string {
  try {
    return JSON.stringify(rewrite(JSON.parse(text)));
  } catch {
    return text;
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Rewrites the `data:` lines of an SSE stream as they come, whole lines at a time. */
function sseRewriter(rewrite: (message: unknown) => unknown): { push(chunk: string): string; end(): string } {
  let pending = '';
  const rewriteLine = (line: string) =>
    line.startsWith('data: ') ? `data: ${rewriteJson(line.slice('data: '.length), rewrite)}` : line;
  return {
    push(chunk) {
      pending += chunk;
      const lastBreak = pending.lastIndexOf('\n');
      if (lastBreak === -1) return '';
      const complete = pending.slice(0, lastBreak + 1);
      pending = pending.slice(lastBreak + 1);
      return complete.split('\n').map(rewriteLine).join('\n');
    },
    end: () => rewriteLine(pending),
  };
}

/** Starts the proxy; `forwardTo` names the hub once it runs (the proxy's own port is known first, for --cors-origin). */
export async function startRenamingProxy(options: { prefix: string; key: string }): Promise<RenamingProxy> {
  let target: URL | undefined;
  const toHub = (message: unknown) => prefixRequestNames(message, options.prefix);
  const toClient = (message: unknown) => unprefixListedNames(message, options.prefix);

  const server = createServer((incoming, outgoing) => {
    void (async () => {
      if (!target) throw new Error('the proxy has no target yet');
      const body = incoming.method === 'POST' ? rewriteJson(await readBody(incoming), toHub) : undefined;
      const headers: IncomingHttpHeaders = { ...incoming.headers, authorization: `Bearer ${options.key}` };
      delete headers['content-length'];
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const upstream = httpRequest(target, { method: incoming.method, headers });
      upstream.on('response', (answer) => {
        const responseHeaders = { ...answer.headers };
        const streaming = String(answer.headers['content-type']).includes('text/event-stream');
        delete responseHeaders['content-length'];
        outgoing.writeHead(answer.statusCode ?? 502, responseHeaders);
        if (streaming) {
          const rewriter = sseRewriter(toClient);
          answer.setEncoding('utf8');
          answer.on('data', (chunk: string) => outgoing.write(rewriter.push(chunk)));
          answer.on('end', () => outgoing.end(rewriter.end()));
        } else {
          void readBody(answer).then((text) => outgoing.end(text === '' ? '' : rewriteJson(text, toClient)));
        }
        // A client that leaves (a scenario closing its stream) ends the hub's stream too.
        outgoing.on('close', () => answer.destroy());
      });
      upstream.on('error', (error) => {
        if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`proxy: ${error.message}`);
      });
      upstream.end(body);
    })().catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    forwardTo: (url) => (target = new URL(url)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
