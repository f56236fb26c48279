// The Bearer challenges a connection listens to, and scopes as sets.

import { describe, expect, it } from 'vitest';
import { coversScope, scopeUnion, watchChallenges, type BearerChallenge } from './challenge.js';

const endpoint = 'https://mcp.example/mcp';

function answering(status: number, challenge?: string) {
  return async () => new Response('{}', { status, headers: challenge ? { 'www-authenticate': challenge } : {} });
}

describe('watchChallenges', () => {
  it("hears the endpoint's 401 and 403 challenges, with their metadata location, scope and error", async () => {
    const heard: BearerChallenge[] = [];
    const unauthorized = 'Bearer resource_metadata="https://mcp.example/prm", scope="files:read"';
    await watchChallenges(endpoint, (challenge) => void heard.push(challenge), answering(401, unauthorized))(endpoint);
    const forbidden = 'Bearer error="insufficient_scope", scope="files:write"';
    await watchChallenges(
      endpoint,
      (challenge) => void heard.push(challenge),
      answering(403, forbidden),
    )(`${endpoint}?session=1`);
    expect(heard).toEqual([
      { status: 401, resourceMetadataUrl: new URL('https://mcp.example/prm'), scope: 'files:read' },
      { status: 403, scope: 'files:write', error: 'insufficient_scope' },
    ]);
  });

  it('leaves other URLs and other answers alone, and stops the request when the listener throws', async () => {
    const heard: BearerChallenge[] = [];
    const listen = (challenge: BearerChallenge) => void heard.push(challenge);
    await watchChallenges(endpoint, listen, answering(401, 'Bearer scope="x"'))('https://mcp.example/token');
    await watchChallenges(endpoint, listen, answering(200))(endpoint);
    expect(heard).toEqual([]);

    const refusing = watchChallenges(
      endpoint,
      () => {
        throw new Error('needs more access');
      },
      answering(403, 'Bearer error="insufficient_scope"'),
    );
    await expect(refusing(endpoint)).rejects.toThrow('needs more access');
  });
});

describe('scopes', () => {
  it('unites them in the order first seen, each once', () => {
    expect(scopeUnion('a b', undefined, 'b  c', '')).toBe('a b c');
    expect(scopeUnion(undefined, '')).toBeUndefined();
  });

  it('knows when one covers another', () => {
    expect(coversScope('a b c', 'c a')).toBe(true);
    expect(coversScope('a b', 'a d')).toBe(false);
    expect(coversScope(undefined, 'a')).toBe(false);
    expect(coversScope(undefined, undefined)).toBe(true);
  });
});
