// A comparison's state from its events: columns start empty, deltas add to their own column only (and bring the
// time to first token), a finished column takes main's answer, and events of an older comparison change nothing.

import { describe, expect, it } from 'vitest';
import type { CompareEvent } from '../../../shared/bridge/types.js';
import { compareReducer, formatTimings, isComparing, withSnapshot, type CompareState } from './compare-state.js';

const ids = { conversationId: 'c1', compareId: 'k1' };

function run(events: CompareEvent[], from: CompareState | null = null) {
  return events.reduce(compareReducer, from);
}

describe('a comparison on screen', () => {
  it('fills each column from its own deltas, then takes the finished answer', () => {
    const state = run([
      { type: 'compare-start', ...ids, text: 'Hi', models: ['a/1', 'b/2'] },
      { type: 'column-delta', ...ids, column: 1, text: 'Hel', reasoning: '', firstTokenMs: 420 },
      { type: 'column-delta', ...ids, column: 1, text: 'lo', reasoning: '' },
      { type: 'column-delta', ...ids, column: 0, text: 'Yo', reasoning: 'hm', firstTokenMs: 90 },
    ])!;
    expect(state.columns.map((column) => [column.text, column.reasoning, column.firstTokenMs])).toEqual([
      ['Yo', 'hm', 90],
      ['Hello', '', 420],
    ]);
    expect(isComparing(state)).toBe(true);
    expect(formatTimings(state.columns[1]!)).toBe('first token 0.4 s');

    const answer = { ...state.columns[0]!, status: 'complete' as const, totalMs: 1250, cost: null };
    const finished = run(
      [
        { type: 'column-finish', ...ids, column: 0, answer },
        { type: 'column-finish', ...ids, column: 1, answer: { ...state.columns[1]!, status: 'stopped', totalMs: 900 } },
        { type: 'column-delta', ...ids, column: 1, text: ' late', reasoning: '' },
      ],
      state,
    )!;
    expect(finished.columns[0]).toEqual(answer);
    expect(finished.columns[1]!.text).toBe('Hello');
    expect(isComparing(finished)).toBe(false);
    expect(formatTimings(finished.columns[0]!)).toBe('first token 0.1 s · total 1.3 s');
  });

  it('ignores the events of another comparison', () => {
    const state = run([{ type: 'compare-start', ...ids, text: 'Hi', models: ['a/1', 'b/2'] }]);
    const after = run([{ type: 'column-delta', ...ids, compareId: 'old', column: 0, text: 'x', reasoning: '' }], state);
    expect(after).toBe(state);
  });

  it('takes main’s snapshot column by column, unless the screen’s column is further along', () => {
    const state = run([
      { type: 'compare-start', ...ids, text: 'Hi', models: ['a/1', 'b/2', 'c/3'] },
      { type: 'column-delta', ...ids, column: 0, text: 'Hello there', reasoning: '' },
    ])!;
    const finishedOnScreen = { ...state.columns[2]!, status: 'complete' as const, text: 'Done.' };
    const screen = { ...state, columns: [state.columns[0]!, state.columns[1]!, finishedOnScreen] };
    const snapshot = {
      ...state,
      columns: [
        { ...state.columns[0]!, text: 'Hel' }, // older than what the events brought
        { ...state.columns[1]!, text: 'Meanwhile' }, // newer
        { ...state.columns[2]!, text: 'Do' }, // still streaming in main's answer, finished on screen since
      ],
    };
    expect(withSnapshot(screen, snapshot).columns.map((column) => column.text)).toEqual([
      'Hello there',
      'Meanwhile',
      'Done.',
    ]);
    // Another comparison's snapshot, or none on screen: the snapshot as it is.
    expect(withSnapshot(null, snapshot)).toBe(snapshot);
    expect(withSnapshot({ ...screen, compareId: 'old' }, snapshot)).toBe(snapshot);
  });
});
