// The hub's per-session event store: ids in order, replay of one stream after an id, and the bounds (count and
// bytes, oldest first) that keep a session's memory small.

import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { HubEventStore } from './hub-event-store.js';

const note = (text: string): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { text } });

async function replayed(store: HubEventStore, after: string): Promise<{ stream: string; events: [string, unknown][] }> {
  const events: [string, unknown][] = [];
  const stream = await store.replayEventsAfter(after, {
    send: (id, message) => {
      events.push([id, message]);
      return Promise.resolve();
    },
  });
  return { stream, events };
}

describe('HubEventStore', () => {
  it('replays the events of the same stream after an id, without the priming event', async () => {
    const store = new HubEventStore();
    const priming = await store.storeEvent('call', {} as JSONRPCMessage);
    const first = await store.storeEvent('call', note('one'));
    await store.storeEvent('other', note('elsewhere'));
    const second = await store.storeEvent('call', note('two'));
    expect(await store.getStreamIdForEventId(first)).toBe('call');
    expect(await replayed(store, priming)).toEqual({
      stream: 'call',
      events: [
        [first, note('one')],
        [second, note('two')],
      ],
    });
    expect((await replayed(store, first)).events).toEqual([[second, note('two')]]);
  });

  it('keeps at most maxEvents, dropping the oldest, and refuses a resume from one dropped', async () => {
    const store = new HubEventStore({ maxEvents: 2 });
    const ids = [];
    for (const text of ['a', 'b', 'c']) ids.push(await store.storeEvent('s', note(text)));
    expect(await store.getStreamIdForEventId(ids[0]!)).toBeUndefined();
    await expect(replayed(store, ids[0]!)).rejects.toThrow(/no longer kept/);
    expect((await replayed(store, ids[1]!)).events).toEqual([[ids[2], note('c')]]);
  });

  it('keeps at most maxBytes, but always the newest event whatever its size', async () => {
    const store = new HubEventStore({ maxBytes: 200 });
    const small = await store.storeEvent('s', note('x'));
    const large = await store.storeEvent('s', note('y'.repeat(500)));
    expect(await store.getStreamIdForEventId(small)).toBeUndefined();
    expect(await store.getStreamIdForEventId(large)).toBe('s');
    const next = await store.storeEvent('s', note('z'));
    expect(await store.getStreamIdForEventId(large)).toBeUndefined();
    expect(await store.getStreamIdForEventId(next)).toBe('s');
  });
});
