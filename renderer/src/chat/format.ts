// How numbers read in the transcript.

import { formatMoney, type Usage } from '../../../shared/api/index.js';

export function formatCost(cost: number | null): string | null {
  return cost === null ? null : formatMoney(cost);
}

export function formatUsage(usage: Usage | null, cost: number | null): string {
  if (!usage) return '';
  const parts = [`${usage.prompt_tokens.toLocaleString()} in`, `${usage.completion_tokens.toLocaleString()} out`];
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (reasoning) parts.push(`${reasoning.toLocaleString()} reasoning`);
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (cached) parts.push(`${cached.toLocaleString()} cached`);
  const money = formatCost(cost);
  if (money) parts.push(money);
  return parts.join(' · ');
}

/** Pretty JSON when it parses, the text as it is otherwise. */
export function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
