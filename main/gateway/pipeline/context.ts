// What every request the pipeline runs shares of the gateway around it, whatever protocol carried it: the app's
// services (deps.ts), the requests in flight, how errors are worded, keep-alives, how long a stalled caller is
// waited for, and the retry policy. Built once by create-gateway.ts.

import type { GatewayDeps } from '../deps.js';
import type { ErrorContext } from '../http/errors.js';
import type { InFlightRequests } from '../http/in-flight.js';
import type { StreamContext } from './stream-relay.js';
import type { RetryPolicy } from './upstream-attempts.js';
import type { StickyTargets } from './sticky-targets.js';
import type { TargetStats } from './target-stats.js';
import type { GenerationWatcher } from './watch.js';

export interface RequestContext {
  deps: GatewayDeps;
  inFlight: InFlightRequests;
  errors: ErrorContext;
  /** Interval of `: SWITCHYARD PROCESSING` comments while the upstream is silent. */
  keepAliveMs: number;
  /** A stream whose caller takes nothing for this long is ended as if the caller had left; 0 = never. */
  stalledCallerMs: number;
  /** Retries and backoff of upstream attempts (upstream-attempts.ts). */
  retry?: RetryPolicy;
  /** What watches every generation (metrics, traces, target health); none by default. */
  watchers?: readonly GenerationWatcher[];
  /** What model groups' strategies and stickiness know in this process (target-plan.ts); none in bare tests. */
  groups?: GroupRouting;
}

export interface GroupRouting {
  stats: TargetStats;
  sticky: StickyTargets;
}

/** The part of the context the answers and relays take (so that they are tested without a gateway around them). */
export function streamContextOf(context: RequestContext): StreamContext {
  return {
    providers: context.deps.providers,
    targetHealth: context.deps.targetHealth,
    responseCache: context.deps.responseCache,
    errors: context.errors,
    retry: context.retry,
    keepAliveMs: context.keepAliveMs,
  };
}
