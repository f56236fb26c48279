// The gateway's error envelope as the spec writes it, asserted whole: a test that checks a refusal word for word
// checks its status, its code, its message and that nothing else (an empty `metadata`) came with it.

import { expect } from 'vitest';

/** `response` is the error envelope of `status` with exactly `message`, and an empty `metadata`. */
export async function expectErrorEnvelope(response: Response, status: number, message: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual({ error: { code: status, message, metadata: {} } });
}
