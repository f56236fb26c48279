// What a failed provider test (listing its models) should make a person check. The failure's own message already
// names the provider and what happened; this adds the next step, chosen by the kind of failure: a rejected key
// points at the key, a missing endpoint at the base URL, no answer at all at the URL and the network.

import { UpstreamError } from './http/upstream-errors.js';

export function testFailureAdvice(error: unknown): string {
  const status = error instanceof UpstreamError ? error.upstreamStatus : undefined;
  if (status === 401 || status === 403) return 'Check its API key.';
  if (status === 402) return "Check the provider account's credits.";
  if (status === 404) return 'Check its base URL: the models are listed at <base URL>/models.';
  if (status === 429 || status === 503 || status === 529) return 'Try again in a moment.';
  if (status === undefined && error instanceof UpstreamError)
    return 'Check its base URL, and that this machine reaches it (network, proxy, or the local server running).';
  return 'Check its API key, its base URL and the network.';
}

/** The failure's message with its advice, one sentence after the other. */
export function describeTestFailure(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).trim();
  const sentence = /[.!?]$/.test(message) ? message : `${message}.`;
  return `${sentence} ${testFailureAdvice(error)}`;
}
