// Writes Server-Sent Events to a raw Node response: `data: <json>\n\n` lines only (never `event:` lines, which
// the openai SDK treats as something else), comments as keep-alives, and `data: [DONE]` at the end. Awaiting a
// write applies backpressure: a slow caller slows our reading of the upstream instead of filling memory.

import type { ServerResponse } from 'node:http';

export const sseHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
} as const;

export class SseWriter {
  private lastWriteAt = Date.now();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly response: ServerResponse) {}

  /** Sends status 200 and the SSE headers. */
  open(): void {
    this.response.writeHead(200, sseHeaders);
    this.response.flushHeaders();
  }

  /** True once the caller is gone or the stream was ended. */
  get closed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  data(payload: unknown): Promise<void> {
    return this.write(`data: ${JSON.stringify(payload)}\n\n`);
  }

  /**
   * Sends `: <text>` whenever nothing was written for `intervalMs` (proxies and clients with idle timeouts
   * otherwise drop a slow model's stream). Stopped by end().
   */
  keepAlive(intervalMs: number, text: string): void {
    if (intervalMs <= 0) return;
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastWriteAt >= intervalMs) void this.write(`: ${text}\n\n`);
    }, intervalMs);
    this.heartbeat.unref();
  }

  /** Writes `data: [DONE]` and ends the response. */
  end(): void {
    clearInterval(this.heartbeat);
    if (this.closed) return;
    this.response.end('data: [DONE]\n\n');
  }

  /** Stops the heartbeat without writing anything (the caller went away). */
  dispose(): void {
    clearInterval(this.heartbeat);
  }

  private write(text: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.lastWriteAt = Date.now();
    if (this.response.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.response.off('drain', done);
        this.response.off('close', done);
        resolve();
      };
      this.response.on('drain', done);
      this.response.on('close', done);
    });
  }
}
