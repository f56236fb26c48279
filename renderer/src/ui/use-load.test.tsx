// useLoad: the first answer, reloads that keep the data on screen, a late older answer that is dropped, and a
// new load when what it loads changes.

import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { useCallback } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLoad } from './use-load.js';

afterEach(cleanup);

/** Answers each call when the test says so, in any order. */
function pendingCalls() {
  const calls: { what: string; answer(value: string): void; fail(error: Error): void }[] = [];
  const load = (what: string) =>
    new Promise<string>((resolve, reject) => calls.push({ what, answer: resolve, fail: reject }));
  return { calls, load };
}

function useLoadOf(load: (what: string) => Promise<string>, what: string) {
  return useLoad(useCallback(() => load(what), [load, what]));
}

describe('useLoad', () => {
  it('is loading until the first answer, then shows it', async () => {
    const { calls, load } = pendingCalls();
    const { result } = renderHook(() => useLoadOf(load, 'keys'));
    expect(result.current).toMatchObject({ data: undefined, error: null, loading: true });
    await act(async () => calls[0]!.answer('three keys'));
    expect(result.current).toMatchObject({ data: 'three keys', error: null, loading: false });
  });

  it('keeps the data on screen while a reload runs, and shows an error in words', async () => {
    const { calls, load } = pendingCalls();
    const { result } = renderHook(() => useLoadOf(load, 'keys'));
    await act(async () => calls[0]!.answer('three keys'));
    let reloaded!: Promise<void>;
    act(() => {
      reloaded = result.current.reload();
    });
    expect(result.current).toMatchObject({ data: 'three keys', loading: true });
    await act(async () => {
      calls.at(-1)!.fail(new Error('the bridge is gone'));
      await reloaded;
    });
    expect(result.current).toMatchObject({ data: 'three keys', error: 'the bridge is gone', loading: false });
  });

  it('loads again when what it loads changes, and drops an older answer that arrives late', async () => {
    const { calls, load } = pendingCalls();
    const { result, rerender } = renderHook(({ what }) => useLoadOf(load, what), { initialProps: { what: 'day' } });
    const first = calls.at(-1)!;
    rerender({ what: 'week' });
    await waitFor(() => expect(calls.at(-1)!.what).toBe('week'));
    expect(result.current.loading).toBe(true);
    await act(async () => calls.at(-1)!.answer('this week'));
    await act(async () => first.answer('today'));
    expect(result.current).toMatchObject({ data: 'this week', loading: false });
  });

  it('does not load again when it re-renders with the same dependencies', async () => {
    const { calls, load } = pendingCalls();
    const { result, rerender } = renderHook(({ what }) => useLoadOf(load, what), { initialProps: { what: 'day' } });
    await act(async () => calls.at(-1)!.answer('today'));
    const made = calls.length;
    rerender({ what: 'day' });
    expect(calls).toHaveLength(made);
    expect(result.current.loading).toBe(false);
  });
});
