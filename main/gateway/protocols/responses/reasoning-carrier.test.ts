import { describe, expect, it } from 'vitest';
import { decodeReasoningDetails, encodeReasoningDetails } from './reasoning-carrier.js';

describe('encrypted_content carrying reasoning details', () => {
  const details = [
    {
      type: 'reasoning.text',
      text: 'Thinking…',
      signature: 'EqQBCkgIBxAB+/=',
      format: 'anthropic-claude-v1',
      index: 0,
    },
    { type: 'reasoning.encrypted', data: 'CiwBVKhc7vB+vaaq6rA==', id: 'call_1', format: 'google-gemini-v1', index: 1 },
  ];

  it('gives back exactly the details it carried, behind a version prefix', () => {
    const encrypted = encodeReasoningDetails(details);
    expect(encrypted).toMatch(/^sy1\.[A-Za-z0-9_-]+$/);
    expect(decodeReasoningDetails(encrypted)).toEqual(details);
  });

  it('ignores content it did not write, and content that does not decode', () => {
    expect(decodeReasoningDetails('gAAAAABoOpenAIsOwnEncryptedReasoning')).toBeNull();
    expect(decodeReasoningDetails('sy1.!!!')).toBeNull();
    expect(decodeReasoningDetails(`sy1.${Buffer.from('{"not":"a list"}').toString('base64url')}`)).toBeNull();
  });
});
