// At most one call per interval however often it is asked for: the first at once, the rest folded into one at the
// end of the interval. The UI is told that usage changed, not of each row, so a busy gateway does not flood it.

export interface Throttled {
  call(): void;
  /** Drops a pending call and its timer. */
  dispose(): void;
}

export function throttle(run: () => void, intervalMs: number): Throttled {
  let timer: NodeJS.Timeout | undefined;
  let pending = false;
  const throttled: Throttled = {
    call() {
      if (timer) {
        pending = true;
        return;
      }
      run();
      timer = setTimeout(() => {
        timer = undefined;
        if (!pending) return;
        pending = false;
        throttled.call();
      }, intervalMs);
      timer.unref();
    },
    dispose() {
      clearTimeout(timer);
      timer = undefined;
      pending = false;
    },
  };
  return throttled;
}
