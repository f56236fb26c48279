// What the screen knows of a comparison of models (chat:compare): the prompt and, per model, the answer so far,
// kept current from the bridge's compare events. Only the conversation's latest comparison is shown.

import { newCompareAnswer } from '../../../shared/bridge/chat-message.js';
import type { CompareAnswer, CompareEvent, CompareSnapshot } from '../../../shared/bridge/types.js';

export type CompareState = CompareSnapshot;

/** The state after one event of this conversation's comparisons; events of an older comparison are ignored. */
export function compareReducer(state: CompareState | null, event: CompareEvent): CompareState | null {
  if (event.type === 'compare-start') {
    return {
      conversationId: event.conversationId,
      compareId: event.compareId,
      text: event.text,
      columns: event.models.map(newCompareAnswer),
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

/**
 * Main's snapshot of a comparison, taken over what the screen has of it column by column, unless the screen's is
 * further along (events can overtake the answer that carries the snapshot).
 */
export function withSnapshot(state: CompareState | null, snapshot: CompareSnapshot): CompareState {
  if (!state || state.compareId !== snapshot.compareId) return snapshot;
  return { ...snapshot, columns: snapshot.columns.map((column, at) => furtherOf(column, state.columns[at])) };
}

function furtherOf(answer: CompareAnswer, other: CompareAnswer | undefined): CompareAnswer {
  if (!other || answer.status !== 'streaming') return answer;
  if (other.status !== 'streaming') return other;
  const length = (each: CompareAnswer) => each.text.length + each.reasoning.length;
  return length(answer) >= length(other) ? answer : other;
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
