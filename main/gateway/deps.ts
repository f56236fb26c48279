// What the gateway needs from the rest of the app. The composition root (main/app) wires the real services in;
// tests may wire small in-memory ones.

import type { Logger } from 'pino';
import type { ApiKeyInfo, UsageRecord } from '../../shared/api/index.js';
import type { ProviderRegistry } from '../providers/registry.js';

export interface GatewayKeys {
  /** The key whose secret this is, or null for an unknown, malformed or deleted one. Fast: called per request. */
  authenticate(secret: string): ApiKeyInfo | null;
  list(): ApiKeyInfo[];
  /** False when no key has this id. After it returns true, authenticate() rejects the key. */
  delete(id: string): boolean;
}

export interface GatewayUsage {
  /** Queues one usage row; durable writes happen in batches off the hot path. */
  record(row: UsageRecord): void;
}

export interface GatewayDeps {
  keys: GatewayKeys;
  providers: ProviderRegistry;
  usage: GatewayUsage;
  logger: Logger;
}
