import { describe, expect, it } from 'vitest';
import { DisposableStore, Emitter, toDisposable } from './emitter.js';

describe('Emitter', () => {
  it('delivers each event to every listener until it is disposed', () => {
    const emitter = new Emitter<number>();
    const first: number[] = [];
    const second: number[] = [];
    const subscription = emitter.event((value) => first.push(value));
    emitter.event((value) => second.push(value));
    emitter.fire(1);
    subscription.dispose();
    emitter.fire(2);
    expect(first).toEqual([1]);
    expect(second).toEqual([1, 2]);
  });

  it('keeps firing past a throwing listener and reports its error to the owner', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<string>({ onListenerError: (error) => errors.push(error) });
    const seen: string[] = [];
    emitter.event(() => {
      throw new Error('listener broke');
    });
    emitter.event((value) => seen.push(value));
    expect(() => emitter.fire('a')).not.toThrow();
    expect(seen).toEqual(['a']);
    expect(errors).toEqual([new Error('listener broke')]);
  });

  it('drops a listener error when the owner asked for no report', () => {
    const emitter = new Emitter<string>();
    const seen: string[] = [];
    emitter.event(() => {
      throw new Error('ignored');
    });
    emitter.event((value) => seen.push(value));
    emitter.fire('b');
    expect(seen).toEqual(['b']);
  });

  it('lets a listener dispose itself while the event is delivered', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    const once = emitter.event((value) => {
      seen.push(value);
      once.dispose();
    });
    emitter.fire(1);
    emitter.fire(2);
    expect(seen).toEqual([1]);
    expect(emitter.hasListeners).toBe(false);
  });

  it('subscribes the same function twice as two subscriptions, each removed on its own', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    const listener = (value: number) => seen.push(value);
    const first = emitter.event(listener);
    emitter.event(listener);
    emitter.fire(1);
    first.dispose();
    emitter.fire(2);
    expect(seen).toEqual([1, 1, 2]);
  });

  it('dispose removes every listener', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    emitter.event((value) => seen.push(value));
    emitter.dispose();
    emitter.fire(1);
    expect(seen).toEqual([]);
    expect(emitter.hasListeners).toBe(false);
  });
});

describe('disposables', () => {
  it('toDisposable runs its function once', () => {
    let runs = 0;
    const disposable = toDisposable(() => runs++);
    disposable.dispose();
    disposable.dispose();
    expect(runs).toBe(1);
  });

  it('a DisposableStore disposes what it holds in order, and later additions at once', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('a')));
    store.add(toDisposable(() => order.push('b')));
    store.dispose();
    expect(order).toEqual(['a', 'b']);
    store.add(toDisposable(() => order.push('late')));
    expect(order).toEqual(['a', 'b', 'late']);
    store.dispose();
    expect(order).toEqual(['a', 'b', 'late']);
  });
});
