import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api/index.js';
import { errorBody } from './error-shapes.js';

describe('errorBody', () => {
  const error = new ApiError(429, 'Slow down.', { param: 'model' });

  it("keeps the interface's envelope, metadata included", () => {
    expect(errorBody('interface', error)).toEqual({
      error: { code: 429, message: 'Slow down.', metadata: { param: 'model' } },
    });
  });

  it("answers each protocol in its vendor's shape", () => {
    expect(errorBody('openai', error)).toEqual({
      error: { message: 'Slow down.', type: 'rate_limit_error', param: 'model', code: null },
    });
    expect(errorBody('anthropic', error)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Slow down.' },
    });
    expect(errorBody('gemini', error)).toEqual({
      error: { code: 429, message: 'Slow down.', status: 'RESOURCE_EXHAUSTED' },
    });
  });

  it.each([
    [401, 'authentication_error', 'UNAUTHENTICATED'],
    [402, 'billing_error', 'FAILED_PRECONDITION'],
    [403, 'permission_error', 'PERMISSION_DENIED'],
    [404, 'not_found_error', 'NOT_FOUND'],
    [400, 'invalid_request_error', 'INVALID_ARGUMENT'],
    [504, 'timeout_error', 'DEADLINE_EXCEEDED'],
    [502, 'api_error', 'INTERNAL'],
  ])('maps %i to Anthropic %s and Google %s', (status, anthropic, google) => {
    const failure = new ApiError(status, 'x');
    expect(errorBody('anthropic', failure)).toMatchObject({ error: { type: anthropic } });
    expect(errorBody('gemini', failure)).toMatchObject({ error: { status: google } });
  });
});
