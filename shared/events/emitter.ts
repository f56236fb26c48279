// The one listener type of the code base, in the style of VS Code's `Emitter`/`IDisposable`: a producer owns an
// `Emitter<T>` and fires it; consumers subscribe through its `event` and get a `Disposable` back. A throwing
// listener never stops the others nor the code that fires (a server's lifecycle, a usage write): its error goes
// to the emitter's `onListenerError`, or is dropped when the owner gave none. Runtime-neutral (main, the
// renderer's transports and tests alike), so it imports nothing.

export interface Disposable {
  dispose(): void;
}

/** Subscribes `listener`; disposing the result unsubscribes it. */
export type Event<T> = (listener: (event: T) => void) => Disposable;

/** A disposable that runs `dispose` once, however often it is disposed. */
export function toDisposable(dispose: () => void): Disposable {
  let disposed = false;
  return {
    dispose() {
      if (disposed) return;
      disposed = true;
      dispose();
    },
  };
}

/** Several disposables disposed together, in the order they were added; added after disposal, disposed at once. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add<D extends Disposable>(item: D): D {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    this.disposed = true;
    for (const item of this.items.splice(0)) item.dispose();
  }
}

export interface EmitterOptions {
  /** Where a listener's error goes (a logger); by default it is dropped: listeners own their errors. */
  onListenerError?: (error: unknown) => void;
}

export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(event: T) => void>();

  constructor(private readonly options: EmitterOptions = {}) {}

  readonly event: Event<T> = (listener) => {
    // A wrapper per subscription: the same function subscribed by two owners is removed by each one separately.
    const entry = (event: T) => listener(event);
    this.listeners.add(entry);
    return toDisposable(() => this.listeners.delete(entry));
  };

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  fire(event: T): void {
    // A copy: a listener may unsubscribe itself, or subscribe another, while it runs.
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.options.onListenerError?.(error);
      }
    }
  }

  /** Removes every listener. */
  dispose(): void {
    this.listeners.clear();
  }
}
