// Every request in progress, so that close() can wait for them and then abort the rest. Each request gets an
// AbortController (aborting it tears down its upstream request): aborted with CallerGoneError when the caller's
// connection closes before the response finished, with ShuttingDownError when close()'s grace period is over.
// A request counts as finished when its response emitted 'close' (after 'finish', the bytes are with the OS).

/** The response side of a request, as far as tracking needs it (Node's ServerResponse is one). */
export interface TrackedResponse {
  once(event: 'close', listener: () => void): unknown;
  readonly writableFinished: boolean;
}

/** Abort reason: the caller closed its connection. */
export class CallerGoneError extends Error {
  constructor() {
    super('The caller closed the connection.');
    this.name = 'CallerGoneError';
  }
}

/** Abort reason: the gateway is closing and the grace period is over. */
export class ShuttingDownError extends Error {
  constructor() {
    super('Switchyard is shutting down');
    this.name = 'ShuttingDownError';
  }
}

export class InFlightRequests {
  private readonly active = new Set<AbortController>();
  private readonly controllers = new WeakMap<object, AbortController>();
  private idleWaiters: (() => void)[] = [];

  get size(): number {
    return this.active.size;
  }

  /** Registers a request until its response closes. */
  track(request: object, response: TrackedResponse): void {
    const controller = new AbortController();
    this.active.add(controller);
    this.controllers.set(request, controller);
    response.once('close', () => {
      if (!response.writableFinished) controller.abort(new CallerGoneError());
      this.active.delete(controller);
      if (this.active.size === 0) this.wakeIdleWaiters();
    });
  }

  /** The request's AbortController (registered by track()). */
  controllerOf(request: object): AbortController {
    let controller = this.controllers.get(request);
    if (!controller) {
      controller = new AbortController();
      this.controllers.set(request, controller);
    }
    return controller;
  }

  abortAll(reason: Error): void {
    for (const controller of this.active) controller.abort(reason);
  }

  /** Resolves true when no request is left, false when `timeoutMs` passed first. Leaves no timer behind. */
  waitUntilIdle(timeoutMs: number): Promise<boolean> {
    if (this.active.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== wake);
        resolve(false);
      }, timeoutMs);
      this.idleWaiters.push(wake);
    });
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
