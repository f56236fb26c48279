import { describe, expect, it } from 'vitest';
import {
  childrenByParent,
  nextChosenOrder,
  pathTo,
  shownPath,
  subtreeIds,
  versionsOnPath,
} from './conversation-tree.js';

const node = (id: string, parentId: string | null, chosenOrder = 0) => ({ id, parentId, chosenOrder });
const ids = (messages: { id: string }[]) => messages.map((message) => message.id);

// q1 ─ a1 ─ q2 ─ a2
//    ├ a1b ─ q3
//    └ a1c
const tree = [
  node('q1', null),
  node('a1', 'q1', 1),
  node('q2', 'a1', 2),
  node('a2', 'q2', 3),
  node('a1b', 'q1', 5),
  node('q3', 'a1b', 6),
  node('a1c', 'q1', 4),
];

describe('shownPath', () => {
  it('follows, at each branch, the child chosen last', () => {
    expect(ids(shownPath(tree))).toEqual(['q1', 'a1b', 'q3']);
    expect(
      ids(shownPath(tree.map((message) => (message.id === 'a1' ? { ...message, chosenOrder: 9 } : message)))),
    ).toEqual(['q1', 'a1', 'q2', 'a2']);
  });

  it('takes the newest child on a tie, a stored line as it is, and nothing of nothing', () => {
    expect(ids(shownPath([node('q', null), node('x', 'q'), node('y', 'q')]))).toEqual(['q', 'y']);
    expect(ids(shownPath([node('a', null), node('b', 'a'), node('c', 'b')]))).toEqual(['a', 'b', 'c']);
    expect(shownPath([])).toEqual([]);
  });

  it('shows a message whose parent is gone as a root rather than hiding it', () => {
    expect(ids(shownPath([node('orphan', 'missing'), node('child', 'orphan')]))).toEqual(['orphan', 'child']);
    expect(childrenByParent([node('orphan', 'missing')]).get(null)).toHaveLength(1);
  });
});

describe('pathTo', () => {
  it('is the line from the root to the message', () => {
    expect(ids(pathTo(tree, 'a2'))).toEqual(['q1', 'a1', 'q2', 'a2']);
    expect(ids(pathTo(tree, 'q1'))).toEqual(['q1']);
    expect(pathTo(tree, 'unknown')).toEqual([]);
    expect(pathTo(tree, null)).toEqual([]);
  });

  it('ends on a cycle instead of looping', () => {
    expect(ids(pathTo([node('a', 'b'), node('b', 'a')], 'a'))).toEqual(['b', 'a']);
  });
});

describe('subtreeIds', () => {
  it('is the message and everything below it, in every version', () => {
    expect(subtreeIds(tree, 'a1')).toEqual(['a1', 'q2', 'a2']);
    expect(subtreeIds(tree, 'q1').sort()).toEqual(ids(tree).sort());
    expect(subtreeIds(tree, 'a2')).toEqual(['a2']);
  });
});

describe('versionsOnPath', () => {
  it('lists the versions, oldest first, of each shown message that has any', () => {
    expect(versionsOnPath(tree, shownPath(tree))).toEqual({ a1b: ['a1', 'a1b', 'a1c'] });
    expect(versionsOnPath(tree, pathTo(tree, 'a2'))).toEqual({ a1: ['a1', 'a1b', 'a1c'] });
    const edited = [node('q', null), node('q-edited', null, 1)];
    expect(versionsOnPath(edited, shownPath(edited))).toEqual({ 'q-edited': ['q', 'q-edited'] });
  });
});

describe('nextChosenOrder', () => {
  it('is above every other', () => {
    expect(nextChosenOrder(tree)).toBe(7);
    expect(nextChosenOrder([])).toBe(1);
  });
});
