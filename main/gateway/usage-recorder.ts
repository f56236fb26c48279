// Builds the one UsageRecord of a chat request (shared/api/usage.ts) and hands it to deps.usage. Recording must
// never break a response, so failures are logged and swallowed.

import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Usage, UsageRecord } from '../../shared/api/index.js';
import type { GatewayUsage } from './deps.js';

const maxHeaderChars = 200;

export function headerText(request: FastifyRequest, name: string): string | null {
  const raw = request.headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value.slice(0, maxHeaderChars) : null;
}

export interface UsageOutcome {
  status: number;
  finishReason: string | null;
  usage?: Usage | null;
  error?: string | null;
}

export class UsageRecorder {
  private readonly startedAt = performance.now();
  private firstTokenAt: number | null = null;
  private recorded = false;
  /** Set once the model resolved to a provider. */
  provider: string | null = null;

  constructor(
    private readonly sink: GatewayUsage,
    private readonly logger: Logger,
    private readonly base: Pick<
      UsageRecord,
      'id' | 'created_at' | 'key_id' | 'app_title' | 'app_referer' | 'model' | 'streamed'
    >,
  ) {}

  /** Time to first token: the first content, reasoning or tool-call delta from the upstream. */
  markFirstToken(): void {
    this.firstTokenAt ??= performance.now();
  }

  record(outcome: UsageOutcome): void {
    if (this.recorded) return;
    this.recorded = true;
    const usage = outcome.usage ?? null;
    const row: UsageRecord = {
      ...this.base,
      provider: this.provider,
      status: outcome.status,
      finish_reason: outcome.finishReason,
      prompt_tokens: usage?.prompt_tokens ?? 0,
      completion_tokens: usage?.completion_tokens ?? 0,
      cached_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
      reasoning_tokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
      cost: null, // pricing comes later; the upstream's own usage.cost reaches the caller in the stream
      latency_ms: Math.round(performance.now() - this.startedAt),
      ttft_ms: this.firstTokenAt === null ? null : Math.round(this.firstTokenAt - this.startedAt),
      error: outcome.error ? outcome.error.slice(0, 500) : null,
    };
    try {
      this.sink.record(row);
    } catch (error) {
      this.logger.error({ err: (error as Error).message, generation: row.id }, 'recording usage failed');
    }
  }
}
