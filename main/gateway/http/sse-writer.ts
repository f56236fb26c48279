// Writes Server-Sent Events to a raw Node response: `data: <json>\n\n` lines only (never `event:` lines, which
// the openai SDK treats as something else), comments as keep-alives, and `data: [DONE]` at the end. Awaiting a
// write applies backpressure: a slow caller slows our reading of the upstream instead of filling memory. A caller
// that takes nothing for `stalledCallerMs` while a write waits (a client stuck, or gone without closing) has its
// response destroyed, which ends its stream as if it had left: the upstream request is aborted, the usage row says
// cancelled. Without that limit, such a stream would hold its upstream connection and memory for as long as the
// upstream keeps generating.

import type { ServerResponse } from 'node:http';

export const sseHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
} as const;

export interface SseWriterOptions {
  /** How long a write may wait for the caller to take anything before the response is destroyed; 0 = forever. */
  stalledCallerMs?: number;
  /** Called when the response is destroyed for that reason. */
  onStalled?: (stalledMs: number) => void;
}

export class SseWriter {
  private lastWriteAt = Date.now();
  private heartbeat: NodeJS.Timeout | undefined;
  private wasOpened = false;
  private corked = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly options: SseWriterOptions = {},
  ) {}

  /** Sets status 200 and the SSE headers; they leave with the first write, in the same packet. */
  open(): void {
    this.wasOpened = true;
    this.response.writeHead(200, sseHeaders);
  }

  /** True once open() sent the status: from then on failures can only travel inside the stream. */
  get opened(): boolean {
    return this.wasOpened;
  }

  /** Writes one `: <text>` comment line (ignored by SSE clients). */
  comment(text: string): Promise<void> {
    return this.write(`: ${text}\n\n`);
  }

  /** True once the caller is gone or the stream was ended. */
  get closed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  data(payload: unknown): Promise<void> {
    return this.write(`data: ${JSON.stringify(payload)}\n\n`);
  }

  /** Writes SSE text as it is (whole events, encoded by the caller); nothing for ''. */
  raw(text: string): Promise<void> {
    return text === '' ? Promise.resolve() : this.write(text);
  }

  /**
   * Sends `: <text>` (or the SSE text a function returns: a protocol's own ping event) whenever nothing was
   * written for `intervalMs` (proxies and clients with idle timeouts otherwise drop a slow model's stream).
   * Stopped by end().
   */
  keepAlive(intervalMs: number, text: string | (() => string)): void {
    if (intervalMs <= 0) return;
    this.heartbeat = setInterval(() => {
      // A caller that has not taken the last write needs no sign of life, and would only hold one more.
      if (Date.now() - this.lastWriteAt < intervalMs || this.response.writableNeedDrain) return;
      void (typeof text === 'string' ? this.comment(text) : this.raw(text()));
    }, intervalMs);
    this.heartbeat.unref();
  }

  /** Writes `last` (by default `data: [DONE]`, the chat-completions ending) and ends the response. */
  end(last = 'data: [DONE]\n\n'): void {
    clearInterval(this.heartbeat);
    if (this.closed) return;
    this.response.end(last);
  }

  /** Stops the heartbeat without writing anything (the caller went away). */
  dispose(): void {
    clearInterval(this.heartbeat);
  }

  private write(text: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.lastWriteAt = Date.now();
    this.corkUntilNextTurn();
    if (this.response.write(text)) return Promise.resolve();
    const { stalledCallerMs = 0, onStalled } = this.options;
    return new Promise((resolve) => {
      const stalled =
        stalledCallerMs > 0
          ? setTimeout(() => {
              onStalled?.(stalledCallerMs);
              this.response.destroy(); // 'close' resolves the write
            }, stalledCallerMs).unref()
          : undefined;
      const done = () => {
        clearTimeout(stalled);
        this.response.off('drain', done);
        this.response.off('close', done);
        resolve();
      };
      this.response.on('drain', done);
      this.response.on('close', done);
    });
  }

  /**
   * Everything written during this turn of the event loop leaves in one packet: Node's own corking ends at the
   * next tick, before an `await writer.data()` resumes, so the last chunks, `[DONE]` and the end of the chunked
   * body would otherwise cost a system call each.
   */
  private corkUntilNextTurn(): void {
    if (this.corked) return;
    this.corked = true;
    this.response.cork();
    setImmediate(() => {
      this.corked = false;
      this.response.uncork();
    });
  }
}
