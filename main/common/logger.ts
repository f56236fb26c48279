// One pino logger for the app. Logs go to stderr so that CLI output on stdout stays machine-readable.
// Redaction is a second line of defence: code must not put secrets in log fields in the first place.

import { destination, pino, type Logger } from 'pino';

export type { Logger };

export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-goog-api-key"]',
  'headers.authorization',
  'apiKey',
  'api_key',
  'key',
  'secret',
];

export function createLogger(level: string = process.env.SWITCHYARD_LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: '[redacted]' } }, destination(2));
}
