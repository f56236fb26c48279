// `reasoning` (OpenRouter's request field) → Anthropic's `thinking` and the `max_tokens` it needs.
// Anthropic requires max_tokens, and with thinking on: 1024 ≤ budget_tokens < max_tokens (thinking counts
// toward max_tokens). See docs/decisions/003-anthropic-temperature.md for the rules and why.

import type { ChatRequest, ReasoningEffort } from '../../../shared/api/index.js';

/** max_tokens when the caller gives none and thinking is off. */
export const defaultMaxTokens = 4096;
/** Room for the answer on top of the thinking budget when the caller gives no max_tokens. */
export const answerTokens = 4096;
export const minThinkingBudget = 1024;

type ThinkingEffort = Exclude<ReasoningEffort, 'none'>;
/** Budgets by effort when the caller gives no max_tokens. */
const effortBudgets: Record<ThinkingEffort, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
};
/** Shares of the caller's max_tokens by effort (OpenRouter's rule), never under minThinkingBudget. */
const effortShares: Record<ThinkingEffort, number> = { minimal: 0.1, low: 0.2, medium: 0.5, high: 0.8, xhigh: 0.95 };

export interface AnthropicThinkingPlan {
  maxTokens: number;
  /** Absent: no thinking (not asked, the model cannot, or the caller's max_tokens leaves no room for it). */
  budgetTokens?: number;
}

/** Whether the request asks for reasoning: a `reasoning` object that says neither `enabled: false` nor effort `none`. */
export function wantsReasoning(request: Pick<ChatRequest, 'reasoning'>): boolean {
  const reasoning = request.reasoning;
  return reasoning !== undefined && reasoning.enabled !== false && reasoning.effort !== 'none';
}

export function planAnthropicThinking(
  request: Pick<ChatRequest, 'reasoning' | 'max_tokens' | 'max_completion_tokens'>,
  modelCanThink: boolean,
): AnthropicThinkingPlan {
  const callerMax = request.max_completion_tokens ?? request.max_tokens;
  if (!wantsReasoning(request) || !modelCanThink) return { maxTokens: callerMax ?? defaultMaxTokens };
  const reasoning = request.reasoning ?? {};
  const effort = reasoning.effort === undefined || reasoning.effort === 'none' ? 'medium' : reasoning.effort;
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
