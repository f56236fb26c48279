// A minimal typed listener set: what an EventEmitter offers, minus string event names and `any` payloads.

export type Dispose = () => void;

export class Listeners<Payload> {
  private readonly listeners = new Set<(payload: Payload) => void>();

  add(listener: (payload: Payload) => void): Dispose {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(payload: Payload): void {
    // A throwing listener must not stop the others nor the server lifecycle that emits.
    for (const listener of [...this.listeners]) {
      try {
        listener(payload);
      } catch {
        // Listeners own their errors.
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
