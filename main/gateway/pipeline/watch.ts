// What watches generations without changing their course (metrics, traces, each target's health): told when a
// generation starts, when each of its upstream attempts starts and how it ends, and the usage row it ends with.
// A gateway without watchers pays one empty-array check per step.

import type { UsageRecord } from '../../../shared/api/index.js';

/** A generation as its watchers see it when it starts: its models canonical, before admission. */
export interface WatchedGeneration {
  id: string;
  /** The route that took the request as registered (`/v1/chat/completions`): bounded, never a path with ids. */
  route: string;
  keyId: string;
  /** The `<provider>/<model>` asked for (an alias's target once aliases are resolved; a model group's name). */
  model: string;
  stream: boolean;
  /** The caller's W3C `traceparent` header, when it sent one. */
  traceParent: string | null;
  /** The request as the pipeline routes it (a chat request on most routes). */
  request: unknown;
}

/** One upstream attempt, as a watcher follows it. */
export interface AttemptWatch {
  /** Headers to send upstream with this attempt (a `traceparent` continuing the caller's trace). */
  upstreamHeaders?: Readonly<Record<string, string>>;
  /**
   * The upstream accepted: a whole answer arrived, or a stream's first part. `answer` is what the attempt resolved
   * with: the adapter's completion or embeddings for a whole answer, the opened stream for a stream.
   */
  answered(answer?: unknown): void;
  /** The attempt failed before anything reached the caller (it may be retried or fall back). */
  failed(error: unknown): void;
}

export interface GenerationWatch {
  /** An upstream attempt starts on `model` (`<provider>/<model>`) of the provider with id `provider`. */
  attempt?(model: string, provider: string): AttemptWatch | undefined;
  /** The generation's one usage row was written: it ended, however it ended. */
  ended?(row: UsageRecord): void;
}

export interface GenerationWatcher {
  /** A generation started; what follows it, or undefined to let it pass unwatched. */
  started(generation: WatchedGeneration): GenerationWatch | undefined;
}

const noWatches: readonly GenerationWatch[] = Object.freeze([]);

/** The watches of one generation: none (shared, nothing allocated) when no watcher is configured. */
export function watchesOf(
  watchers: readonly GenerationWatcher[] | undefined,
  generation: WatchedGeneration,
): readonly GenerationWatch[] {
  if (!watchers || watchers.length === 0) return noWatches;
  const watches: GenerationWatch[] = [];
  for (const watcher of watchers) {
    const watch = watcher.started(generation);
    if (watch) watches.push(watch);
  }
  return watches;
}

/** The attempt watches of one attempt; empty when nothing watches it. */
export function attemptWatchesOf(
  watches: readonly GenerationWatch[],
  model: string,
  provider: string,
): readonly AttemptWatch[] {
  if (watches.length === 0) return noAttemptWatches;
  const attempts: AttemptWatch[] = [];
  for (const watch of watches) {
    const attempt = watch.attempt?.(model, provider);
    if (attempt) attempts.push(attempt);
  }
  return attempts;
}

const noAttemptWatches: readonly AttemptWatch[] = Object.freeze([]);

/** `attempt`'s outcome told to its watches; the promise itself when nothing watches it. */
export function watchedAttempt<T>(attempts: readonly AttemptWatch[], attempt: Promise<T>): Promise<T> {
  if (attempts.length === 0) return attempt;
  return attempt.then(
    (value) => {
      for (const watch of attempts) watch.answered(value);
      return value;
    },
    (error: unknown) => {
      for (const watch of attempts) watch.failed(error);
      throw error;
    },
  );
}

/** The headers the attempt's watches add upstream; undefined when none. */
export function upstreamHeadersOf(attempts: readonly AttemptWatch[]): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const watch of attempts) {
    if (watch.upstreamHeaders) headers = { ...headers, ...watch.upstreamHeaders };
  }
  return headers;
}
