// The error a call that must fail throws, for the tests that go on to check its fields (status, message, code).
// A call that succeeds fails the test; an error of another kind is thrown on, so the test shows it as it was.

/** What `action` throws or rejects with, when that is an `errorType`. */
export async function rejectionOf<E>(
  errorType: abstract new (...args: never[]) => E,
  action: () => unknown,
): Promise<E> {
  try {
    await action();
  } catch (error) {
    if (error instanceof errorType) return error;
    throw error;
  }
  throw new Error(`expected the call to fail with ${errorType.name}`);
}
