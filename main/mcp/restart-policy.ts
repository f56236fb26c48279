// When a server dies it is restarted after 1 s, 2 s, 4 s… (capped), so a server that crashes at once does not
// spin the CPU, and one that crashed once long ago restarts quickly: the count resets after a stable period.

export interface RestartPolicy {
  /** Restarts in a row before giving up with status `error`; 0 never restarts (the CLI's choice). */
  maxRestarts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** Connected this long without a crash, the count starts again from zero. */
  stableAfterMs: number;
}

export const defaultRestartPolicy: RestartPolicy = {
  maxRestarts: 5,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
};

/** The wait before restart number `attempt` (1-based). */
export function restartDelayMs(policy: RestartPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, attempt - 1));
}
