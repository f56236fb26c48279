import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api/index.js';
import { bearerSecret } from './auth.js';
import { toApiError } from './errors.js';

const lines: string[] = [];
const logger = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
const context = { logger, bodyLimitBytes: 1024 };

function frameworkError(code: string, statusCode: number, message = 'fastify says'): Error {
  return Object.assign(new Error(message), { code, statusCode });
}

describe('toApiError', () => {
  it('passes ApiErrors through', () => {
    const error = new ApiError(429, 'slow down');
    expect(toApiError(error, context)).toBe(error);
  });

  it.each([
    ['FST_ERR_CTP_INVALID_JSON_BODY', 400, 400, 'The request body is not valid JSON.'],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 400, 400, 'The request body is empty; a JSON object is required.'],
    ['FST_ERR_CTP_BODY_TOO_LARGE', 413, 413, 'The request body is larger than the limit of 1024 bytes.'],
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 415, 'Content-Type must be application/json.'],
    ['FST_ERR_SOMETHING_NEW', 400, 400, 'fastify says'],
  ])('maps %s to %i', (code, statusCode, status, message) => {
    expect(toApiError(frameworkError(code, statusCode), context).toBody()).toEqual({
      error: { code: status, message, metadata: {} },
    });
  });

  it('hides unexpected errors behind a 500 and logs them', () => {
    lines.length = 0;
    const error = toApiError(new TypeError('secret internals at /home/me'), context);
    expect(error.status).toBe(500);
    expect(error.message).toBe('Internal error');
    expect(error.metadata).toEqual({});
    expect(lines.join('')).toContain('secret internals');
    expect(toApiError(frameworkError('X', 503), context).status).toBe(500);
  });
});

describe('bearerSecret', () => {
  it.each([
    ['Bearer sk-1', 'sk-1'],
    ['bearer   sk-1 ', 'sk-1'],
    ['Basic abc', null],
    ['Bearer', null],
    ['Bearer a b', null],
    [undefined, null],
  ])('%j → %j', (header, secret) => {
    expect(bearerSecret(header)).toBe(secret);
  });
});
