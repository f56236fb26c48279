// The gateway's Prometheus metrics: one registry per process, fed by a generation watcher (each request's usage row
// and the timings of its upstream attempts), by the MCP hub's tool calls and, at each scrape, by the targets'
// health states. Names follow Prometheus's conventions: `switchyard_` prefix, base units in the name (seconds,
// USD), `_total` on counters. Labels carry no secret, prompt or error text; callers cannot grow them (label-bounds.ts).
// Decision 032 says what each metric means, "added latency" above all.
//
// prom-client is required when metrics are on, not imported: a gateway without them never loads it.

import { createRequire } from 'node:module';
import type PromClient from 'prom-client';
import type { UsageRecord } from '../../../shared/api/index.js';
import type { GenerationWatch, GenerationWatcher, WatchedGeneration } from '../pipeline/watch.js';
import { BoundedLabel, cacheLabelOf, modelLabelOf } from './label-bounds.js';
import { Tally } from './tally.js';

/** One upstream target's health as the cooldowns see it: `healthy`, `cooling_down`, `trial`… */
export interface TargetState {
  model: string;
  provider: string;
  state: string;
}

/** What a hub tool call tells the metrics (main/mcp's HubToolCall is one). */
export interface ObservedToolCall {
  server: string;
  error: string | null;
}

export interface GatewayMetricsOptions {
  /** Adds a `key_id` label to `switchyard_requests_total` (ids, never secrets; one series per key). */
  keyLabels?: boolean;
  /** Each target's health state, read at every scrape. */
  targetStates?: () => Iterable<TargetState>;
  /** Injectable clock in milliseconds (tests). */
  now?: () => number;
}

/** Distinct models, providers and MCP servers a scrape may name before the rest share `other`. */
const labelBounds = { models: 200, providers: 50, servers: 100, keys: 1_000 } as const;

/** Seconds: the gateway's own time is sub-millisecond to tens of ms; first tokens take 0.1 s to a minute. */
const addedLatencyBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const upstreamBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80];

export class GatewayMetrics {
  readonly registry: PromClient.Registry;
  /** The watcher to give the gateway (GatewayOptions.watchers). */
  readonly watcher: GenerationWatcher;
  private readonly models = new BoundedLabel(labelBounds.models);
  private readonly providers = new BoundedLabel(labelBounds.providers);
  private readonly servers = new BoundedLabel(labelBounds.servers);
  private readonly keys = new BoundedLabel(labelBounds.keys);
  private readonly now: () => number;
  private readonly keyLabels: boolean;
  private readonly requests: Tally;
  private readonly errors: Tally;
  private readonly rateLimited: Tally;
  private readonly attempts: Tally;
  private readonly addedLatency: PromClient.Histogram;
  private readonly duration: PromClient.Histogram;
  private readonly firstToken: PromClient.Histogram;
  private readonly inputTokens: Tally;
  private readonly outputTokens: Tally;
  private readonly cost: Tally;
  /** Generations in flight by route; read by the gauge at scrape time. */
  private readonly inFlight = new Map<string, number>();
  private readonly toolCalls: Tally;

  constructor(options: GatewayMetricsOptions = {}) {
    const prom = createRequire(import.meta.url)('prom-client') as typeof PromClient;
    this.now = options.now ?? (() => performance.now());
    this.keyLabels = options.keyLabels ?? false;
    const registry = new prom.Registry();
    this.registry = registry;
    const registers = [registry];
    const counter = (name: string, help: string, labelNames: string[]): Tally => {
      const tally = new Tally(labelNames);
      new prom.Counter({
        name,
        help,
        labelNames,
        registers,
        collect() {
          tally.publish(this);
        },
      });
      return tally;
    };
    const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) =>
      new prom.Histogram({ name, help, labelNames, buckets, registers });
    const target = ['model', 'provider'];

    this.requests = counter(
      'switchyard_requests_total',
      'Generations (chat, completions, embeddings, agent protocols) by route, model, provider, status and cache result.',
      ['route', 'model', 'provider', 'status', 'cache', ...(this.keyLabels ? ['key_id'] : [])],
    );
    this.errors = counter(
      'switchyard_request_errors_total',
      'Generations that failed: an error status, or a stream that ended with an error.',
      ['route', 'model', 'provider', 'status'],
    );
    this.rateLimited = counter(
      'switchyard_rate_limited_requests_total',
      "Requests refused with 429 by a key's rate limit, before any upstream call.",
      ['route'],
    );
    this.attempts = counter(
      'switchyard_upstream_attempts_total',
      'Upstream attempts (retries and fallbacks each count) by outcome: answered or failed.',
      [...target, 'outcome'],
    );
    this.addedLatency = histogram(
      'switchyard_added_latency_seconds',
      "The gateway's own time before the answer: from the request's start to the answering attempt's answer (or the end), less the time spent waiting on upstream attempts.",
      ['route'],
      addedLatencyBuckets,
    );
    this.duration = histogram(
      'switchyard_request_duration_seconds',
      'Whole generations, from the request to the end of the response.',
      ['route'],
      upstreamBuckets,
    );
    this.firstToken = histogram(
      'switchyard_time_to_first_token_seconds',
      "Time to the upstream's first content byte, from the request's start.",
      target,
      upstreamBuckets,
    );
    this.inputTokens = counter('switchyard_input_tokens_total', 'Prompt tokens.', target);
    this.outputTokens = counter('switchyard_output_tokens_total', 'Completion tokens (reasoning included).', target);
    this.cost = counter('switchyard_cost_usd_total', 'Cost in US dollars (0 for unpriced models).', target);
    const inFlight = this.inFlight;
    new prom.Gauge({
      name: 'switchyard_in_flight_requests',
      help: 'Generations started and not yet ended.',
      labelNames: ['route'],
      registers,
      collect() {
        this.reset();
        for (const [route, count] of inFlight) this.set({ route }, count);
      },
    });
    const targetStates = options.targetStates;
    const providers = this.providers;
    const models = this.models;
    new prom.Gauge({
      name: 'switchyard_target_state',
      help: "Each upstream target's health: 1 for its current state (healthy, cooling_down, trial).",
      labelNames: [...target, 'state'],
      registers,
      // Every worker sees the same shared state: one answer, not their sum.
      aggregator: 'max',
      collect() {
        this.reset();
        if (!targetStates) return;
        for (const { model, provider, state } of targetStates()) {
          this.set({ model: modelLabelOf(model, provider, models), provider: providers.of(provider), state }, 1);
        }
      },
    });
    this.toolCalls = counter(
      'switchyard_mcp_tool_calls_total',
      'MCP hub tool calls by server and outcome (ok, error).',
      ['server', 'outcome'],
    );
    this.watcher = { started: (generation) => this.watch(generation) };
  }

  /** Counts a tool call made through the MCP hub (HubOptions.onToolCall). */
  readonly toolCallObserved = (call: ObservedToolCall): void => {
    this.toolCalls.add([this.servers.of(call.server), call.error === null ? 'ok' : 'error']);
  };

  private watch(generation: WatchedGeneration): GenerationWatch {
    const { route } = generation;
    const startedAt = this.now();
    let upstreamMs = 0;
    let answeredAt: number | null = null;
    let attempted = false;
    this.inFlight.set(route, (this.inFlight.get(route) ?? 0) + 1);
    return {
      attempt: (model, provider) => {
        attempted = true;
        const attemptStart = this.now();
        const count = (outcome: string) =>
          this.attempts.add([modelLabelOf(model, provider, this.models), this.providers.of(provider), outcome]);
        return {
          answered: () => {
            answeredAt = this.now();
            upstreamMs += answeredAt - attemptStart;
            count('answered');
          },
          failed: () => {
            upstreamMs += this.now() - attemptStart;
            count('failed');
          },
        };
      },
      ended: (row) => {
        this.inFlight.set(route, this.inFlight.get(route)! - 1);
        const until = answeredAt ?? this.now();
        this.addedLatency.observe({ route }, Math.max(0, until - startedAt - upstreamMs) / 1000);
        this.count(route, row, !attempted);
      },
    };
  }

  private count(route: string, row: UsageRecord, refusedBeforeUpstream: boolean): void {
    const provider = row.provider === null ? 'none' : this.providers.of(row.provider);
    const model = modelLabelOf(row.model, row.provider, this.models);
    const status = String(row.status);
    const cache = cacheLabelOf(row);
    this.requests.add(
      this.keyLabels
        ? [route, model, provider, status, cache, this.keys.of(row.key_id)]
        : [route, model, provider, status, cache],
    );
    if (row.status >= 400 || row.finish_reason === 'error') this.errors.add([route, model, provider, status]);
    if (row.status === 429 && refusedBeforeUpstream) this.rateLimited.add([route]);
    this.duration.observe({ route }, row.latency_ms / 1000);
    if (row.provider === null) return;
    if (row.ttft_ms !== null) this.firstToken.observe({ model, provider }, row.ttft_ms / 1000);
    const target = [model, provider];
    if (row.prompt_tokens > 0) this.inputTokens.add(target, row.prompt_tokens);
    if (row.completion_tokens > 0) this.outputTokens.add(target, row.completion_tokens);
    if (row.cost) this.cost.add(target, row.cost);
  }
}
