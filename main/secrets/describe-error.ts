// Reasons from keytar, libsecret or the file system end up inside one-line warnings and error messages, so
// they are flattened to one short line. None of them carries a secret: callers only pass errors from calls
// whose messages name services, paths or accounts.

const maxLength = 200;

export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.replace(/\s+/g, ' ').trim() || 'unknown error';
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
