// What a model group's strategies know of each target (`<provider>/<model>`), learnt by watching generations in this
// process: attempts in flight (least-busy), a moving average of time to first token (latency) and of output tokens
// per second (throughput, for OpenRouter's `provider.sort`). Per process on purpose: in-flight counts are local by
// nature, and a recent average from one instance's traffic is as good a guide as a shared one (decision 029).

import type { UsageRecord } from '../../../shared/api/index.js';
import type { GenerationWatch, GenerationWatcher, WatchedGeneration } from './watch.js';

/** Weight of the newest observation in the moving averages: about the last ten answers count. */
const smoothing = 0.2;

function averaged(previous: number | undefined, observed: number): number {
  return previous === undefined ? observed : previous + smoothing * (observed - previous);
}

export class TargetStats implements GenerationWatcher {
  private readonly inFlight = new Map<string, number>();
  private readonly ttftMs = new Map<string, number>();
  private readonly tokensPerSecond = new Map<string, number>();

  /** Watches only requests that name a model group (a name without "/" once aliases are canonical). */
  started(generation: WatchedGeneration): GenerationWatch | undefined {
    const models = (generation.request as { models?: unknown }).models;
    const namesGroup =
      !generation.model.includes('/') ||
      (Array.isArray(models) && models.some((name) => typeof name === 'string' && !name.includes('/')));
    if (!namesGroup) return undefined;
    // The attempt that answered stays busy until the generation ends: a stream keeps its upstream working.
    let answeredAttemptEnds: (() => void) | undefined;
    return {
      attempt: (model) => {
        const end = this.attemptStarted(model);
        return { answered: () => (answeredAttemptEnds = end), failed: end };
      },
      ended: (row) => {
        answeredAttemptEnds?.();
        this.learn(row);
      },
    };
  }

  /** Attempts on `model` this process has open. */
  busy(model: string): number {
    return this.inFlight.get(model) ?? 0;
  }

  /** Recent time to first token on `model`, or undefined before its first answer. */
  latencyMs(model: string): number | undefined {
    return this.ttftMs.get(model);
  }

  /** Recent output tokens per second on `model`, or undefined before its first measured answer. */
  throughput(model: string): number | undefined {
    return this.tokensPerSecond.get(model);
  }

  /** Counts an attempt in; the function counts it out (once, however often it is called). */
  private attemptStarted(model: string): () => void {
    this.inFlight.set(model, this.busy(model) + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      const left = this.busy(model) - 1;
      if (left > 0) this.inFlight.set(model, left);
      else this.inFlight.delete(model);
    };
  }

  private learn(row: UsageRecord): void {
    if (row.status !== 200 || row.ttft_ms === null) return;
    this.ttftMs.set(row.model, averaged(this.ttftMs.get(row.model), row.ttft_ms));
    const generatingMs = row.latency_ms - row.ttft_ms;
    if (row.completion_tokens > 0 && generatingMs > 0) {
      const observed = (row.completion_tokens * 1000) / generatingMs;
      this.tokensPerSecond.set(row.model, averaged(this.tokensPerSecond.get(row.model), observed));
    }
  }
}
