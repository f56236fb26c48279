// What the gateway needs from the rest of the app. The composition root (main/app) wires the real services in;
// tests may wire small in-memory ones. Types only, and no import of the gateway's own files: every layer of the
// gateway (http, pipeline, protocols, routes) may name them.

import type { GatewayResponseCache } from './pipeline/cache-plan.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type {
  ApiKeyDetails,
  ApiKeyInfo,
  ChatRequest,
  CreatedApiKey,
  CreditsInfo,
  GenerationInfo,
  KeyRulesChange,
  KeyStatus,
  Usage,
  UsageRecord,
} from '../../shared/api/index.js';
import type { PricedCost, PriceTarget, TokenPrices, ProviderRegistry } from '../providers/index.js';

export interface GatewayKeys {
  /**
   * The key whose secret this is, or null for an unknown, malformed or deleted one. May throw an ApiError(401) with
   * its own message for a known key that is disabled or expired. Fast: called per request.
   */
  authenticate(secret: string): ApiKeyInfo | null;
  list(): ApiKeyInfo[];
  /** False when no key has this id. After it returns true, authenticate() rejects the key. */
  delete(id: string): Promise<boolean>;
}

export interface GatewayUsage {
  /** Queues one usage row; durable writes happen in batches off the hot path. */
  record(row: UsageRecord): void;
  /** The cost of a request's usage (upstream figure, else price table). Without it, costs stay as upstreams say. */
  price?(target: PriceTarget, usage: Usage | null): PricedCost;
}

/** Credits, key rules and rate limits (main/accounts). Without them every key may do everything, for free. */
export interface GatewayAccounts {
  /**
   * Before any upstream call, from memory: throws ApiError 403 (a model the key may not use), 402 (no credits, or
   * the key's spend limit reached) or 429 (rate limited, with Retry-After). A promise only when the decision needs
   * the database (a requests-per-minute rule shared by every instance of a team server); it rejects the same way.
   */
  admit(keyId: string, request: Pick<ChatRequest, 'model' | 'models'>): void | Promise<void>;
  /** Whether GET /models shows this `provider/model` to the key. */
  allowsModel(keyId: string, model: string): boolean;
  /** The price `provider/model` is charged at (overrides, then the bundled table), or null when it has none. */
  modelPrice(model: string): TokenPrices | null;
  /** Whether the key may list and delete every key; without the right it lists and deletes only itself. */
  mayManageKeys(keyId: string): boolean;
  /** The key with its rules (GET /keys), or undefined for an unknown id. */
  keyDetails(keyId: string): ApiKeyDetails | undefined;
  /** POST /keys. Throws ApiError(400) for an invalid name or rule. */
  createKey(name: string, rules: KeyRulesChange): Promise<CreatedApiKey & ApiKeyDetails>;
  /** PATCH /keys/{id}: rules, and the name when given. Throws ApiError 404 (unknown key) or 400. */
  updateKey(keyId: string, rules: KeyRulesChange, name?: string): Promise<ApiKeyDetails>;
  /** GET /key. */
  keyStatus(keyId: string): KeyStatus;
  /** GET /credits. */
  credits(): CreditsInfo;
  /** Whether the key may read GET /metrics: a management key, or one with the metrics right. */
  mayReadMetrics(keyId: string): boolean;
  /** What the key may use through the MCP hub (`/mcp`): servers, `server__tool` names, `*`; null = not the hub. */
  mcpAccess(keyId: string): string[] | null;
  /** GET /generation: undefined when unknown, or another key's and the caller is not a management key. */
  generation(id: string, keyId: string): Promise<GenerationInfo | undefined>;
}

/** What the gateway needs of the hub; main/mcp's McpHttpHub is one. */
export interface GatewayMcpHub {
  handle(exchange: {
    request: IncomingMessage;
    response: ServerResponse;
    body: unknown;
    caller: { keyId: string; keyName: string; access: readonly string[] };
  }): Promise<void>;
  /** Ends every session (the gateway is closing): their notification streams would keep it open. */
  closeSessions(): Promise<void>;
}

/** What GET /readyz reports (health-routes.ts). */
export interface GatewayHealth {
  /**
   * Whether requests can be served, with each check's state as a fixed word (`database: 'reachable'`); never an
   * error's text, which could carry paths or a database's address to an unauthenticated caller.
   */
  readiness(): GatewayReadiness | Promise<GatewayReadiness>;
}

export interface GatewayReadiness {
  ready: boolean;
  checks: Readonly<Record<string, string>>;
}

/** Each upstream target's health (cooldowns). Without it every target is always tried. */
export interface GatewayTargetHealth {
  /**
   * Null when a request may go to `<provider>/<model>` now (healthy, or the one trial of a cooled target, which
   * this call claims); else until when (ms since the epoch) the target is cooled down. Fast: called per attempt.
   */
  refusedUntil(model: string, now: number): number | null;
}

export type { GatewayResponseCache };

/** What GET /metrics serves (main/gateway/metrics): the whole server's metrics in Prometheus's text format. */
export interface GatewayMetricsScrape {
  contentType: string;
  text(): Promise<string>;
}

export interface GatewayDeps {
  keys: GatewayKeys;
  providers: ProviderRegistry;
  usage: GatewayUsage;
  accounts?: GatewayAccounts;
  /** The MCP hub served at /mcp; without it there is no such route. */
  mcpHub?: GatewayMcpHub;
  /** Checks behind GET /readyz; without them it reports ready whenever the process answers. */
  health?: GatewayHealth;
  /** Cooldowns of failing targets; without it every target is always tried. */
  targetHealth?: GatewayTargetHealth;
  /** Cached answers (decision 031); without it nothing is cached. */
  responseCache?: GatewayResponseCache;
  /** Served at GET /metrics; without it there is no such route (a 404). */
  metrics?: GatewayMetricsScrape;
  logger: Logger;
}
