import { describe, expect, it } from 'vitest';
import { encodeReasoningDetails } from '../responses/reasoning-carrier.js';
import { decodeThoughtSignature, encodeThoughtSignature } from './thought-signature.js';

const details = [
  {
    type: 'reasoning.text',
    text: 'Ünïcode ~~~ ??? >>>',
    signature: 'EuYBCkQYAiJA+/Pol5Z4==',
    format: 'anthropic-claude-v1',
  },
];

describe('thought signatures of ours', () => {
  it('go out as the base64 of the carrier text, the same string in the URL-safe alphabet', () => {
    const signature = encodeThoughtSignature(details);
    expect(signature).toMatch(/^[A-Za-z0-9]+={0,2}$/);
    expect(signature.length % 4).toBe(0);
    expect(Buffer.from(signature, 'base64').toString('utf8')).toBe(encodeReasoningDetails(details));
  });

  it('come back as sent, without their padding, or as the bare carrier of earlier answers', () => {
    const signature = encodeThoughtSignature(details);
    expect(decodeThoughtSignature(signature)).toEqual(details);
    expect(decodeThoughtSignature(signature.replace(/=+$/, ''))).toEqual(details);
    expect(decodeThoughtSignature(encodeReasoningDetails(details))).toEqual(details);
  });

  it('are told from Gemini’s own and from anything else', () => {
    expect(decodeThoughtSignature('CiwBVKhc7vB+vaaq6rA=')).toBeNull();
    expect(decodeThoughtSignature('')).toBeNull();
    expect(decodeThoughtSignature('not base64 at all!')).toBeNull();
    expect(decodeThoughtSignature(Buffer.from('sy1.garbage').toString('base64'))).toBeNull();
  });
});
