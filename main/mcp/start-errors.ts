// What start-up failures are made of, without the MCP SDK: a setup error found before anything ran, and the cause
// chain of a network error. The secret store's and the registry's errors use them too, and both load at the app's
// start, when the SDK must not (decision 018); describe-start-failure.ts turns them into messages.

/** A failure found before anything was started (a missing working directory, a bad URL, a missing secret). */
export class ServerSetupError extends Error {
  override readonly name = 'ServerSetupError';
}

/** "fetch failed" says nothing; its causes say why ("fetch failed: bad port"). */
export function causeChainText(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    messages.push(errorText(current));
    current = (current as { cause?: unknown }).cause;
  }
  return messages.join(': ');
}

/** fetch wraps the socket error ("fetch failed"); the code is somewhere down the `cause` chain. */
export function networkErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** An error's message without its closing full stop. */
export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}
