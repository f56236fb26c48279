// OpenAI-compatible servers on this machine that need no key: Ollama (127.0.0.1:11434, or OLLAMA_HOST as Ollama
// reads it) and LM Studio (127.0.0.1:1234, or LMSTUDIO_BASE_URL). A server counts as running when its
// GET /v1/models answers with a model list within the probe timeout (300 ms: a local server answers in
// milliseconds, one that is not running refuses the connection at once). Results are cached; probes happen at
// start and lazily (listing models or providers, resolving `ollama/…` while Ollama is not known to run), never on
// the path of a request for another provider.

import type { Logger } from 'pino';
import type { ProviderInfo } from '../../shared/api/index.js';
import type { DiscoveredProviderSource } from './registry.js';
import { UpstreamHttp } from './http/upstream-http.js';
import { joinUrl } from './http/url.js';

export interface LocalServer {
  /** The provider id, e.g. `ollama`. */
  id: string;
  /** For messages, e.g. `Ollama`. */
  name: string;
  /** OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
}

export interface LocalProvidersOptions {
  /** The servers to look for; by default Ollama and LM Studio at the addresses `env` gives. */
  servers?: LocalServer[];
  env?: Record<string, string | undefined>;
  /** How long one probe may take. Default 300 ms. */
  probeTimeoutMs?: number;
  /** How long a probe's answer is trusted by listings. Default 30 s. */
  probeTtlMs?: number;
  /** Resolving a model of a server not found running probes it again at most this often. Default 2 s. */
  absentRetryMs?: number;
  logger?: Logger;
  now?: () => number;
}

const maxProbeBodyBytes = 4 * 1024 * 1024;

/** Ollama's own reading of OLLAMA_HOST: `[scheme://]host[:port][/path]`; no scheme is http on port 11434. */
export function ollamaBaseUrl(host: string | undefined): string {
  let text = host?.trim() || '127.0.0.1:11434';
  let scheme = 'http';
  let defaultPort = '11434';
  const separator = text.indexOf('://');
  if (separator !== -1) {
    scheme = text.slice(0, separator).toLowerCase();
    text = text.slice(separator + 3);
    defaultPort = scheme === 'https' ? '443' : '80';
  }
  const slash = text.indexOf('/');
  const path = slash === -1 ? '' : text.slice(slash).replace(/\/+$/, '');
  const hostPort = slash === -1 ? text : text.slice(0, slash);
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  let hostname = match?.[1] ?? '';
  const port = match?.[2] || defaultPort;
  // Ollama listens on every interface for 0.0.0.0; a client connects to this machine.
  if (hostname === '' || hostname === '0.0.0.0') hostname = '127.0.0.1';
  if (hostname === '[::]') hostname = '[::1]';
  if (hostname.includes(':') && !hostname.startsWith('[')) hostname = `[${hostname}]`;
  return `${scheme}://${hostname}:${port}${path}/v1`;
}

/** LMSTUDIO_BASE_URL as given (a URL without a path gets `/v1`), else LM Studio's default server address. */
export function lmStudioBaseUrl(value: string | undefined): string {
  const text = value?.trim();
  if (!text) return 'http://127.0.0.1:1234/v1';
  const withScheme = text.includes('://') ? text : `http://${text}`;
  if (!URL.canParse(withScheme)) return 'http://127.0.0.1:1234/v1';
  const url = new URL(withScheme);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path || '/v1'}`;
}

export function localServersFromEnv(env: Record<string, string | undefined> = process.env): LocalServer[] {
  return [
    { id: 'ollama', name: 'Ollama', baseUrl: ollamaBaseUrl(env.OLLAMA_HOST) },
    { id: 'lmstudio', name: 'LM Studio', baseUrl: lmStudioBaseUrl(env.LMSTUDIO_BASE_URL) },
  ];
}

interface ServerState {
  server: LocalServer;
  running: boolean;
  /** When it was last probed (0: never). */
  probedAt: number;
  /** When it was first seen running, for `created_at`. */
  foundAt: string | null;
  probing?: Promise<void>;
}

export class LocalProviders implements DiscoveredProviderSource {
  private readonly states: Map<string, ServerState>;
  private readonly probeTimeoutMs: number;
  private readonly probeTtlMs: number;
  private readonly absentRetryMs: number;
  private readonly logger: Logger | undefined;
  private readonly now: () => number;
  private readonly closing = new AbortController();
  private readonly http: UpstreamHttp;
  private version = 0;

  constructor(options: LocalProvidersOptions = {}) {
    const servers = options.servers ?? localServersFromEnv(options.env);
    this.states = new Map(servers.map((server) => [server.id, { server, running: false, probedAt: 0, foundAt: null }]));
    this.probeTimeoutMs = options.probeTimeoutMs ?? 300;
    this.probeTtlMs = options.probeTtlMs ?? 30_000;
    this.absentRetryMs = options.absentRetryMs ?? 2_000;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    // Its own small pool: probes never queue behind (or hold sockets of) real upstream traffic.
    this.http = new UpstreamHttp({
      keepAliveTimeoutMs: 1_000,
      connectTimeoutMs: this.probeTimeoutMs,
      maxBodyBytes: maxProbeBodyBytes,
    });
  }

  /** The servers found running at their last probe. */
  listProviders(): ProviderInfo[] {
    const providers: ProviderInfo[] = [];
    for (const state of this.states.values()) {
      if (!state.running) continue;
      providers.push({
        id: state.server.id,
        kind: 'openai',
        base_url: state.server.baseUrl,
        has_api_key: false,
        created_at: state.foundAt ?? new Date(this.now()).toISOString(),
        source: 'local',
      });
    }
    return providers;
  }

  async getApiKey(): Promise<string | null> {
    return null;
  }

  /** Moves whenever a server was found or lost. */
  changeVersion(): number {
    return this.version;
  }

  mayProvide(providerId: string): boolean {
    return this.states.has(providerId);
  }

  /** Why `providerId` is not available, for the 404 of a request that named it. */
  describeAbsent(providerId: string): string | null {
    const state = this.states.get(providerId);
    if (!state || state.running) return null;
    return `No ${state.server.name} server answered at ${state.server.baseUrl}.`;
  }

  /**
   * Probes again what is stale: every server whose answer is older than probeTtlMs, or only `providerId` when
   * it is not known to run and was not probed in the last absentRetryMs. Never rejects; takes at most about the
   * probe timeout, concurrent callers share one probe per server.
   */
  async refresh(providerId?: string): Promise<void> {
    const now = this.now();
    const due = [...this.states.values()].filter((state) => {
      if (providerId !== undefined) {
        return state.server.id === providerId && !state.running && now - state.probedAt >= this.absentRetryMs;
      }
      return state.probedAt === 0 || now - state.probedAt >= this.probeTtlMs;
    });
    await Promise.all(due.map((state) => this.probe(state)));
  }

  /** Aborts probes in flight and closes the probe connection pool. */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.all([...this.states.values()].map((state) => state.probing));
    await this.http.close();
  }

  private probe(state: ServerState): Promise<void> {
    if (this.closing.signal.aborted) return Promise.resolve();
    state.probing ??= this.answersWithModels(state.server)
      .then((running) => {
        state.probedAt = this.now();
        if (running === state.running) return;
        state.running = running;
        if (running) state.foundAt ??= new Date(state.probedAt).toISOString();
        this.version += 1;
        this.logger?.info(
          { provider: state.server.id, base_url: state.server.baseUrl },
          running ? 'local provider found' : 'local provider gone',
        );
      })
      .finally(() => {
        state.probing = undefined;
      });
    return state.probing;
  }

  /** True when GET {baseUrl}/models answers 2xx with `{data: [...]}` in time. */
  private async answersWithModels(server: LocalServer): Promise<boolean> {
    const signal = AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.probeTimeoutMs)]);
    const target = {
      provider: {
        id: server.id,
        kind: 'openai' as const,
        base_url: server.baseUrl,
        has_api_key: false,
        created_at: '',
      },
      apiKey: null,
    };
    try {
      const url = joinUrl(server.baseUrl, 'models');
      const json = (await this.http.getJson(target, url, {}, signal)) as { data?: unknown } | null;
      return Array.isArray(json?.data);
    } catch {
      return false; // refused, timed out, not 2xx, too large, not JSON: not a server we can use
    }
  }
}
