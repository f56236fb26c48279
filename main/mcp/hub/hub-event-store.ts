// The events of one hub session's SSE streams, kept so that a client whose connection dropped can resume with
// `Last-Event-ID` and get what it missed (the spec's resumability: the SDK's transport numbers and replays, this
// keeps). In memory and bounded by count and bytes, oldest dropped first: a session's events are worth keeping only
// for the seconds a reconnect takes. A resume from an event already dropped is refused (400) by the transport,
// rather than replayed with a gap.

import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface EventLimits {
  /** Events kept per session. Default 1,000. */
  maxEvents?: number;
  /** Bytes of JSON kept per session; the newest event is kept whatever its size. Default 1 MB. */
  maxBytes?: number;
}

interface StoredEvent {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

export class HubEventStore implements EventStore {
  /** By event id, in the order stored (ids are increasing numbers, so a Map keeps them sorted). */
  private readonly events = new Map<number, StoredEvent>();
  private nextId = 1;
  private bytes = 0;
  private readonly maxEvents: number;
  private readonly maxBytes: number;

  constructor(limits: EventLimits = {}) {
    this.maxEvents = limits.maxEvents ?? 1_000;
    this.maxBytes = limits.maxBytes ?? 1_000_000;
  }

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = this.nextId++;
    const bytes = Buffer.byteLength(JSON.stringify(message));
    this.events.set(id, { streamId, message, bytes });
    this.bytes += bytes;
    for (const [oldId, old] of this.events) {
      if (this.events.size <= 1 || (this.events.size <= this.maxEvents && this.bytes <= this.maxBytes)) break;
      this.events.delete(oldId);
      this.bytes -= old.bytes;
    }
    return Promise.resolve(String(id));
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.events.get(Number(eventId))?.streamId);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = Number(lastEventId);
    const streamId = this.events.get(last)?.streamId;
    if (streamId === undefined) throw new Error(`event ${lastEventId} is no longer kept`);
    for (const [id, event] of this.events) {
      // The priming event (an empty message) only marks where a stream starts.
      if (id > last && event.streamId === streamId && 'jsonrpc' in event.message) await send(String(id), event.message);
    }
    return streamId;
  }
}
