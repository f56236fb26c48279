// `reasoning` (OpenRouter's request field) → Anthropic's `thinking` and the `max_tokens` it needs.
// Anthropic requires max_tokens, and with thinking on: 1024 ≤ budget_tokens < max_tokens (thinking counts
// toward max_tokens). See docs/decisions/003-anthropic-temperature.md for the rules and why.

import type { ChatRequest } from '../../../shared/api/index.js';

/** max_tokens when the caller gives none and thinking is off. */
export const defaultMaxTokens = 4096;
/** Room for the answer on top of the thinking budget when the caller gives no max_tokens. */
export const answerTokens = 4096;
export const minThinkingBudget = 1024;

/** Budgets by effort when the caller gives no max_tokens. */
const effortBudgets = { minimal: 1024, low: 2048, medium: 8192, high: 16384 } as const;
/** Shares of the caller's max_tokens by effort (OpenRouter's rule), never under minThinkingBudget. */
const effortShares = { minimal: 0.1, low: 0.2, medium: 0.5, high: 0.8 } as const;

export interface AnthropicThinkingPlan {
  maxTokens: number;
  /** Absent: no thinking (not asked, the model cannot, or the caller's max_tokens leaves no room for it). */
  budgetTokens?: number;
}

/** Whether the request asks for reasoning: a `reasoning` object that does not say `enabled: false`. */
export function wantsReasoning(request: Pick<ChatRequest, 'reasoning'>): boolean {
  return request.reasoning !== undefined && request.reasoning.enabled !== false;
}

export function planAnthropicThinking(
  request: Pick<ChatRequest, 'reasoning' | 'max_tokens' | 'max_completion_tokens'>,
  modelCanThink: boolean,
): AnthropicThinkingPlan {
  const callerMax = request.max_completion_tokens ?? request.max_tokens;
  if (!wantsReasoning(request) || !modelCanThink) return { maxTokens: callerMax ?? defaultMaxTokens };
  const reasoning = request.reasoning ?? {};
  const effort = reasoning.effort ?? 'medium';
  if (callerMax === undefined) {
    const budget = Math.max(minThinkingBudget, reasoning.max_tokens ?? effortBudgets[effort]);
    return { maxTokens: budget + answerTokens, budgetTokens: budget };
  }
  // The caller's max_tokens is a cap on everything generated, thinking included: the budget must fit under it.
  const wanted = reasoning.max_tokens ?? Math.floor(callerMax * effortShares[effort]);
  const budget = Math.min(Math.max(minThinkingBudget, wanted), callerMax - 1);
  if (budget < minThinkingBudget) return { maxTokens: callerMax };
  return { maxTokens: callerMax, budgetTokens: budget };
}
