// The real provider traffic other projects recorded, read from `../shared/recordings/` beside the repository (CI
// clones `shared/` there, as on a developer's machine). Nothing here is copied into the repository; a missing
// folder is an error, never a reason to skip. Three formats: vercel/ai `*.chunks.txt` (one event payload a line,
// without SSE framing), `*.json` (a whole response), and VCR cassettes `*.yaml` (raw HTTP interactions).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parse } from 'yaml';

/** `<repo>/../shared/recordings`, from test/recordings/. */
export const recordingsDir = fileURLToPath(new URL('../../../shared/recordings/', import.meta.url));

/** Fails loudly when the folder is not there: the replay tests must never pass by finding nothing. */
export function requireRecordingsDir(): string {
  if (!existsSync(join(recordingsDir, 'SOURCES.md'))) {
    throw new Error(
      `The recorded provider traffic is missing: expected ${recordingsDir}SOURCES.md. ` +
        'Clone the shared folder beside the repository (../shared/recordings from the repository root).',
    );
  }
  return recordingsDir;
}

/** Every recording's path inside the folder (`<owner>__<repo>/<path>`), SOURCES.md excepted, sorted. */
export function listRecordings(): string[] {
  const root = requireRecordingsDir();
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name !== 'SOURCES.md') files.push(relative(root, path));
    }
  };
  walk(root);
  return files.sort();
}

/** The recordings SOURCES.md names (`| owner/repo:path | commit |` rows), as paths inside the folder. */
export function listedInSources(): string[] {
  const sources = readFileSync(join(requireRecordingsDir(), 'SOURCES.md'), 'utf8');
  const rows = sources.matchAll(/^\| ([\w.-]+)\/([\w.-]+):(\S+) \| `[0-9a-f]{40}` \|$/gm);
  return [...rows].map(([, owner, repo, path]) => `${owner}__${repo}/${path}`).sort();
}

function read(path: string): string {
  return readFileSync(join(requireRecordingsDir(), path), 'utf8');
}

/** The payloads of a vercel/ai `.chunks.txt`: one JSON text a line. */
export function readChunkLines(path: string): string[] {
  return read(path)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

export function readJson(path: string): unknown {
  return JSON.parse(read(path)) as unknown;
}

/** One recorded HTTP exchange of a cassette. */
export interface Interaction {
  method: string;
  uri: string;
  /** The request body as recorded (parsed JSON), null when there was none. */
  requestBody: unknown;
  status: number;
  contentType: string;
  /** The response body as the provider sent it, decompressed. */
  body: string;
}

interface CassetteInteraction {
  request: { method: string; uri: string; parsed_body?: unknown; body?: unknown };
  response: {
    status: { code: number };
    headers?: Record<string, string[] | undefined>;
    body?: { string?: string | Uint8Array };
    parsed_body?: unknown;
  };
}

function header(headers: Record<string, string[] | undefined> | undefined, name: string): string {
  const found = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return found?.[1]?.[0] ?? '';
}

/** The body of a recorded response: pydantic-ai keeps JSON parsed, simonw/llm keeps the raw (gzipped) bytes. */
function responseBody(response: CassetteInteraction['response']): string {
  if (response.parsed_body !== undefined) return JSON.stringify(response.parsed_body);
  const raw = response.body?.string ?? '';
  if (typeof raw === 'string') return raw;
  const bytes = Buffer.from(raw);
  return (header(response.headers, 'content-encoding') === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** The interactions of a VCR cassette (pydantic-ai and simonw/llm-* both use vcrpy's format). */
export function readCassette(path: string): Interaction[] {
  const cassette = parse(read(path)) as { interactions: CassetteInteraction[] };
  return cassette.interactions.map(({ request, response }) => ({
    method: request.method,
    uri: request.uri,
    requestBody: request.parsed_body ?? request.body ?? null,
    status: response.status.code,
    contentType: header(response.headers, 'content-type'),
    body: responseBody(response),
  }));
}
