// What the screen knows of a comparison of models (chat:compare): the prompt and, per model, the answer so far,
// kept current from the bridge's compare events. Only the conversation's latest comparison is shown.

import type { CompareAnswer, CompareEvent } from '../../../shared/bridge/types.js';

export interface CompareState {
  conversationId: string;
  compareId: string;
  text: string;
  columns: CompareAnswer[];
}

/** The state after one event of this conversation's comparisons; events of an older comparison are ignored. */
export function compareReducer(state: CompareState | null, event: CompareEvent): CompareState | null {
  if (event.type === 'compare-start') {
    return {
      conversationId: event.conversationId,
      compareId: event.compareId,
      text: event.text,
      columns: event.models.map((model) => ({
        model,
        status: 'streaming',
        text: '',
        reasoning: '',
        usage: null,
        cost: null,
        error: null,
        firstTokenMs: null,
        totalMs: null,
      })),
    };
  }
  if (!state || state.compareId !== event.compareId) return state;
  if (event.type === 'column-delta') {
    return withColumn(state, event.column, (column) =>
      column.status === 'streaming'
        ? {
            ...column,
            text: column.text + event.text,
            reasoning: column.reasoning + event.reasoning,
            firstTokenMs: event.firstTokenMs ?? column.firstTokenMs,
          }
        : column,
    );
  }
  if (event.type === 'column-finish') return withColumn(state, event.column, () => event.answer);
  return state;
}

export function isComparing(state: CompareState | null): boolean {
  return state?.columns.some((column) => column.status === 'streaming') ?? false;
}

function withColumn(state: CompareState, index: number, change: (column: CompareAnswer) => CompareAnswer) {
  return { ...state, columns: state.columns.map((column, at) => (at === index ? change(column) : column)) };
}

/** "first token 0.4 s · total 2.1 s", as far as known. */
export function formatTimings(answer: CompareAnswer): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const parts: string[] = [];
  if (answer.firstTokenMs !== null) parts.push(`first token ${seconds(answer.firstTokenMs)}`);
  if (answer.totalMs !== null) parts.push(`total ${seconds(answer.totalMs)}`);
  return parts.join(' · ');
}
