// A local MCP Registry on 127.0.0.1 that speaks the registry's real read API (docs/reference/api/openapi.yaml of
// modelcontextprotocol/registry): `GET /v0/servers?search=&cursor=&limit=&version=latest` as `{servers: [{server,
// _meta}], metadata: {nextCursor, count}}`, ordered by name, the cursor the last name of a page; and
// `GET /v0/servers/{name}/versions/{version}` (URL-encoded, `latest` allowed) as `{server, _meta}`, 404
// `{"error": "Server not found"}` otherwise. Documents are served as published (malformed ones too).

import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const officialMeta = 'io.modelcontextprotocol.registry/official';

export interface RegistryServerHandle {
  baseUrl: string;
  /** Publishes `document` as a version of `name` (default: the document's own name); the last one is latest. */
  publish(document: unknown, name?: string): void;
  /** The request paths and queries received, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startRegistryServer(documents: unknown[] = []): Promise<RegistryServerHandle> {
  const versions = new Map<string, unknown[]>();
  const requests: string[] = [];
  const publish = (document: unknown, name?: string) => {
    const key = name ?? String((document as { name?: unknown }).name);
    versions.set(key, [...(versions.get(key) ?? []), document]);
  };
  for (const document of documents) publish(document);
  const answer = (document: unknown, isLatest: boolean) => ({
    server: document,
    _meta: { [officialMeta]: { status: 'active', publishedAt: '2025-12-11T10:00:00Z', isLatest } },
  });

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://registry.test');
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET') return send(405, { error: 'Method not allowed' });
    if (url.pathname === '/v0/servers') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit') ?? 30);
      const cursor = url.searchParams.get('cursor') ?? '';
      const names = [...versions.keys()].filter((name) => name.toLowerCase().includes(search) && name > cursor).sort();
      const page = names.slice(0, limit);
      const servers = page.map((name) => answer(versions.get(name)!.at(-1), true));
      const nextCursor = names.length > limit ? page.at(-1) : undefined;
      return send(200, { servers, metadata: { count: servers.length, ...(nextCursor ? { nextCursor } : {}) } });
    }
    const match = /^\/v0\/servers\/([^/]+)\/versions\/([^/]+)$/.exec(url.pathname);
    if (match) {
      const all = versions.get(decodeURIComponent(match[1]!)) ?? [];
      const version = decodeURIComponent(match[2]!);
      const found =
        version === 'latest'
          ? all.at(-1)
          : all.find((document) => (document as { version?: unknown }).version === version);
      if (found !== undefined) return send(200, answer(found, found === all.at(-1)));
    }
    send(404, { error: 'Server not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    publish,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A folder to use as PATH with node, npx and sh only (npx runs a package's bin through sh): servers installed with
 * npx start, and uvx and docker are missing wherever the tests run.
 */
export function nodeOnlyPath(folder: string): string {
  fs.mkdirSync(folder, { recursive: true });
  fs.symlinkSync(process.execPath, path.join(folder, 'node'));
  for (const program of ['npx', 'sh']) fs.symlinkSync(findOnPath(program), path.join(folder, program));
  return folder;
}

function findOnPath(program: string): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, program);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`${program} is not on the PATH of the tests`);
}
