// Main's events for the UI, numbered in order. Transports subscribe (IPC forwards to the window, SSE to each
// browser tab); the last events are kept so that an EventSource that reconnects gets what it missed
// (Last-Event-ID) instead of a gap in a streamed answer.

import type { BridgeEventName, BridgeEventPayload } from '../../shared/bridge/contract.js';
import { Emitter, type Event } from '../../shared/events/index.js';

export interface HubEvent {
  id: number;
  name: BridgeEventName;
  payload: unknown;
}

export class EventHub {
  // A listener's error is dropped: one broken subscriber (a closed window) must not keep the others from events.
  private readonly emitter = new Emitter<HubEvent>();
  private readonly recent: HubEvent[] = [];
  private nextId = 1;

  constructor(private readonly keep = 2_000) {}

  emit<E extends BridgeEventName>(name: E, payload: BridgeEventPayload<E>): void {
    const event: HubEvent = { id: this.nextId++, name, payload };
    this.recent.push(event);
    if (this.recent.length > this.keep) this.recent.splice(0, this.recent.length - this.keep);
    this.emitter.fire(event);
  }

  readonly subscribe: Event<HubEvent> = this.emitter.event;

  /** Events after `lastId`, or null when some of them are no longer kept. */
  since(lastId: number): HubEvent[] | null {
    const oldest = this.recent[0]?.id ?? this.nextId;
    if (lastId + 1 < oldest) return null;
    return this.recent.filter((event) => event.id > lastId);
  }
}
