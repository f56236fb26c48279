// Reads an MCP Registry over its HTTP API (the official one at registry.modelcontextprotocol.io, or a company's
// own): `GET /v0/servers?search=&cursor=&limit=&version=latest` to browse, and
// `GET /v0/servers/{name}/versions/{version}` (both URL-encoded; `latest` is a version) to install. An answer is
// read with a time limit and a size limit, so a slow or huge registry cannot hold a command or fill memory.

import { causeChainText, networkErrorCode } from '../start-errors.js';
import { parseServerList, parseServerResponse, type RegistryPage, type RegistryServer } from './server-json.js';

export const defaultRegistryUrl = 'https://registry.modelcontextprotocol.io';
const defaultTimeoutMs = 15_000;
const defaultMaxBytes = 8 * 1024 * 1024;

export interface RegistryClientOptions {
  /** Whole request, headers and body. Default 15 s. */
  timeoutMs?: number;
  /** Largest answer read. Default 8 MiB. */
  maxBytes?: number;
}

export interface RegistrySearch {
  search?: string;
  cursor?: string;
  limit?: number;
}

/** The registry could not be asked, or answered with an error; `status` is set for an HTTP error answer. */
export class RegistryRequestError extends Error {
  override readonly name = 'RegistryRequestError';
  constructor(
    message: string,
    readonly url: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The registry's base URL checked and without a trailing slash; throws a message naming the value. */
export function normalizeRegistryUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`The registry URL ${JSON.stringify(value)} is not a URL; expected e.g. ${defaultRegistryUrl}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`The registry URL ${JSON.stringify(value)} must start with https:// (or http://)`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new Error(`The registry URL ${JSON.stringify(value)} must be a plain base URL, without credentials or query`);
  }
  return url.href.replace(/\/+$/, '');
}

export class RegistryClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(baseUrl: string, options: RegistryClientOptions = {}) {
    this.baseUrl = normalizeRegistryUrl(baseUrl);
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.maxBytes = options.maxBytes ?? defaultMaxBytes;
  }

  /** One page of the newest version of each server matching `search`. */
  async search(query: RegistrySearch = {}): Promise<RegistryPage> {
    const params = new URLSearchParams({ version: 'latest' });
    if (query.search) params.set('search', query.search);
    if (query.cursor) params.set('cursor', query.cursor);
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    return parseServerList(await this.getJson(`/v0/servers?${params}`));
  }

  /** One version of a server (`latest` by default); a 404 says the name or version is not in this registry. */
  async server(name: string, version = 'latest'): Promise<RegistryServer> {
    const path = `/v0/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
    try {
      return parseServerResponse(await this.getJson(path));
    } catch (error) {
      if (error instanceof RegistryRequestError && error.status === 404) {
        const what = version === 'latest' ? `No server "${name}"` : `No version ${version} of server "${name}"`;
        throw new RegistryRequestError(`${what} in the registry ${this.baseUrl}.`, error.url, 404, { cause: error });
      }
      throw error;
    }
  }

  private async getJson(path: string): Promise<unknown> {
    const url = `${this.baseUrl}${path}`;
    let response: Response;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      response = await fetch(url, { headers: { accept: 'application/json' }, signal, redirect: 'follow' });
    } catch (error) {
      throw new RegistryRequestError(`Cannot reach the registry ${this.baseUrl}: ${reason(error)}.`, url, undefined, {
        cause: error,
      });
    }
    const body = await this.readBody(response, url, signal);
    if (!response.ok) {
      throw new RegistryRequestError(
        `The registry ${this.baseUrl} answered ${response.status}${errorText(body)} for ${path}.`,
        url,
        response.status,
      );
    }
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new RegistryRequestError(`The registry ${this.baseUrl} answered ${path} with text that is not JSON.`, url);
    }
  }

  /** The body as text, refusing more than `maxBytes` (a Content-Length over it is refused before reading). */
  private async readBody(response: Response, url: string, signal: AbortSignal): Promise<string> {
    const tooLarge = () =>
      new RegistryRequestError(
        `The registry ${this.baseUrl} sent more than ${Math.round(this.maxBytes / 1024)} KiB for one answer.`,
        url,
      );
    if (Number(response.headers.get('content-length') ?? 0) > this.maxBytes) {
      await response.body?.cancel();
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body ?? []) {
        size += chunk.byteLength;
        // Leaving the loop early cancels the stream (the iterator holds its lock).
        if (size > this.maxBytes) throw tooLarge();
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof RegistryRequestError) throw error;
      const why = signal.aborted ? `no complete answer within ${this.timeoutMs / 1000} s` : reason(error);
      throw new RegistryRequestError(`Reading the registry's answer failed: ${why}.`, url, undefined, { cause: error });
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/** `{"error": "Server not found"}` as the registry sends it, shortened; nothing when the body says nothing useful. */
function errorText(body: string): string {
  try {
    const error = (JSON.parse(body) as { error?: unknown; title?: unknown; detail?: unknown }) ?? {};
    const message = [error.error, error.title, error.detail].find((part) => typeof part === 'string');
    return typeof message === 'string' ? ` (${message.slice(0, 200)})` : '';
  } catch {
    return '';
  }
}

/** fetch says "fetch failed"; its cause says why (ECONNREFUSED, a timeout). */
function reason(error: unknown): string {
  if ((error as Error | undefined)?.name === 'TimeoutError') return 'no answer in time';
  return networkErrorCode(error) ?? causeChainText(error);
}
