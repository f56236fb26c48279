// What every relayed stream does around its content, whichever protocol it speaks (chat chunks through an encoder,
// an upstream's own events): open early while the upstream is silent, and end with a failure once open. A failure
// before the stream opened is an ordinary answer (failedBeforeAnswer in whole-answer.ts); after, it can only travel
// inside the stream, and the status stays 200 (spec 7.3).

import type { ApiError, Usage } from '../../../shared/api/index.js';
import { toApiError } from '../http/errors.js';
import {
  abortReason,
  shuttingDown,
  type Generation,
  type GenerationContext,
  type RoutedRequest,
} from './generation.js';

/**
 * Calls `open` once `keepAliveMs` passed without an answer (retries, backoff and a slow first token can keep a
 * caller waiting for minutes, and clients and proxies drop a silent connection), unless the caller left or the
 * stream opened meanwhile. Returns the timer, for clearTimeout() once the attempts are over.
 */
export function openWhenSilent(
  signal: AbortSignal,
  keepAliveMs: number,
  output: { readonly opened: boolean },
  open: () => void,
): NodeJS.Timeout | undefined {
  if (keepAliveMs <= 0) return undefined;
  return setTimeout(() => {
    if (!signal.aborted && !output.opened) open();
  }, keepAliveMs);
}

/** How one stream ends with a failure. */
export interface StreamEnding {
  /** The usage the upstream reported so far (null when none). */
  usage(): Usage | null;
  /** The usage recorded when the caller left before the upstream reported any. */
  estimate(): Promise<Usage>;
  /** The caller is gone: stop writing and drop the connection. */
  abandon(): void;
  /** Writes the failure in the stream's protocol and ends the stream. */
  fail(error: ApiError): Promise<void> | void;
}

/** A failure once the stream is open: the protocol's error and end (or nothing, caller gone); the row is written. */
export async function failOpenStream<Request extends RoutedRequest>(
  generation: Generation<Request>,
  context: GenerationContext,
  ending: StreamEnding,
  error: unknown,
): Promise<void> {
  const { recorder, signal } = generation;
  const reason = abortReason(signal);
  if (reason === 'caller-gone') {
    ending.abandon();
    // The upstream billed what it generated: without its own count, an estimate is recorded, never 0 tokens.
    const reported = ending.usage();
    const usage = reported ?? (await ending.estimate());
    recorder.record({ status: 200, finishReason: 'cancelled', usage, estimated: reported === null });
    return;
  }
  const apiError = reason === 'shutdown' ? shuttingDown() : toApiError(error, context.errors);
  generation.logger.warn({ status: apiError.status, err: apiError.message }, 'stream failed mid-way');
  // The usage the upstream reported before failing (OpenRouter sends it with the error) reaches the caller priced.
  recorder.addCost(ending.usage());
  await ending.fail(apiError);
  recorder.record({ status: 200, finishReason: 'error', usage: ending.usage(), error: apiError.message });
}
