// The one way tests wait for something that happens on its own time (a socket to close, a row to be written, a
// child process to start): poll a condition until it holds, and fail with what was awaited after a generous
// deadline. Tests never assert on how long that took.

export interface WaitForOptions {
  /** What is awaited, for the error when it never comes ("the usage row"). */
  what: string;
  /** Default 20 s: long enough for a loaded machine, short enough to fail within a test's own timeout. */
  timeoutMs?: number;
  /** Between two checks. Default 10 ms. */
  everyMs?: number;
}

/** Resolves with the condition's first truthy value; rejects with `timed out waiting for <what>`. */
export async function waitFor<T>(
  condition: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { what, timeoutMs = 20_000, everyMs = 10 }: WaitForOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
