import { describe, expect, it } from 'vitest';
import { EventHub } from './event-hub.js';
import {
  cookieValue,
  isAllowedHost,
  isAllowedOrigin,
  loopbackHostnames,
  presentedToken,
  tokenMatches,
} from './request-guard.js';

describe('the UI request guard', () => {
  it('accepts only this server’s loopback names with its port in Host', () => {
    expect(isAllowedHost('127.0.0.1:7420', 7420, loopbackHostnames)).toBe(true);
    expect(isAllowedHost('LOCALHOST:7420', 7420, loopbackHostnames)).toBe(true);
    expect(isAllowedHost('[::1]:7420', 7420, loopbackHostnames)).toBe(true);
    expect(isAllowedHost('127.0.0.1:7421', 7420, loopbackHostnames)).toBe(false);
    expect(isAllowedHost('evil.example:7420', 7420, loopbackHostnames)).toBe(false);
    expect(isAllowedHost('localhost.evil.example:7420', 7420, loopbackHostnames)).toBe(false);
    expect(isAllowedHost(undefined, 7420, loopbackHostnames)).toBe(false);
  });

  it('accepts a missing Origin or our own (over HTTP or HTTPS), nothing else', () => {
    expect(isAllowedOrigin(undefined, '127.0.0.1:7420')).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:7420', '127.0.0.1:7420')).toBe(true);
    expect(isAllowedOrigin('https://127.0.0.1:7420', '127.0.0.1:7420')).toBe(true);
    expect(isAllowedOrigin('http://evil.example', '127.0.0.1:7420')).toBe(false);
    expect(isAllowedOrigin('https://evil.example', '127.0.0.1:7420')).toBe(false);
    expect(isAllowedOrigin('null', '127.0.0.1:7420')).toBe(false);
  });

  it('takes the token from the port’s cookie or a Bearer header, and compares it exactly', () => {
    expect(cookieValue('a=1; switchyard-ui-7420=tok; b=2', 'switchyard-ui-7420')).toBe('tok');
    expect(presentedToken({ cookie: 'switchyard-ui-7421=tok' }, 7420)).toBeUndefined();
    expect(presentedToken({ authorization: 'Bearer abc' }, 7420)).toBe('abc');
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
  });
});

describe('EventHub', () => {
  it('replays what a reconnecting client missed, or says that some is gone', () => {
    const hub = new EventHub(3);
    for (let index = 0; index < 5; index += 1)
      hub.emit('chat:conversations-changed', { conversationId: `c${index}`, change: 'updated' });
    expect(hub.since(3)?.map((event) => event.id)).toEqual([4, 5]);
    expect(hub.since(2)?.map((event) => event.id)).toEqual([3, 4, 5]);
    expect(hub.since(1)).toBeNull();
    expect(hub.since(5)).toEqual([]);
  });
});
