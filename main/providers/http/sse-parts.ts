// An upstream's SSE body → the parts a protocol's decoder makes of its events, as one async iterator: the body is
// read with 'data' events, framed by eventsource-parser and decoded in the same call, and each part is handed out
// from an array. A chain of async generators (body → events → parts → replay) cost four promise hops per chunk;
// this costs one.
//
// A slow caller slows the upstream: the body is paused once the parts waiting to be taken came from more than
// maxQueuedChars of text, and resumed when they have all been taken. Pausing whenever one part waited instead let
// the upstream in faster than a stalled caller took it: each part taken resumed the body, and undici then read
// the socket's whole buffer again and put back what the paused body would not take, so the buffer grew by a read
// (up to 64 KiB) for each part of a few hundred bytes, and a caller that had stopped reading held hundreds of MB.
//
// The end of a stream: at the decoder's `done` (OpenAI's `[DONE]`), the iterator finishes at once and the rest of
// the body (its end, usually in the same packet) is read and dropped, which keeps the connection for the next
// request; a body still open a second later is destroyed. A caller that stops early destroys the body.

import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** A protocol's stream decoder: parts of one event; `done` once the stream said it ended. */
export interface SseEventDecoder<T> {
  accept(event: EventSourceMessage): T[];
  readonly done: boolean;
  /** An error the upstream reported in the stream: the iterator rejects with it after that event's parts. */
  readonly failure?: unknown;
  /** The body ended without `done`: throws when that means the stream was cut short. */
  end(): void;
}

export interface SsePartsOptions {
  /** An event (or a pending line) over this many characters fails the stream with `tooLarge()`. */
  maxEventChars: number;
  tooLarge(): unknown;
  /** Restarted at every complete event and comment; stopped at the end. */
  watchdog: { restart(): void; stop(): void };
  /** What the iterator rejects with for an error of the body (a network failure, our abort, the watchdog). */
  mapError(error: unknown): unknown;
}

/** How long the rest of a body may take after the decoder's `done` before it is destroyed. */
const drainMs = 1_000;

/**
 * Text whose parts may wait to be taken before the body is paused: several network reads' worth, so that a caller
 * that keeps up never pauses it, and little enough that a stalled caller's stream holds little.
 */
const maxQueuedChars = 64 * 1024;

type State = 'reading' | 'ended' | 'failed' | 'delivered';

export class SseParts<T> implements AsyncIterableIterator<T> {
  private parts: T[] = [];
  private index = 0;
  /** The length of the text the waiting parts came from (and of any event still incomplete). */
  private queuedChars = 0;
  private state: State = 'reading';
  private error: unknown = null;
  private wake: (() => void) | null = null;
  // Keeps a character split between two reads intact; a tenth of a TextDecoder's cost to make, once per stream.
  private readonly utf8 = new StringDecoder('utf8');
  private atStart = true;
  private readonly parser;

  constructor(
    private readonly body: Readable,
    private readonly decoder: SseEventDecoder<T>,
    private readonly options: SsePartsOptions,
  ) {
    this.parser = createParser({
      maxBufferSize: options.maxEventChars,
      onEvent: (event) => this.onEvent(event),
      onComment: () => options.watchdog.restart(),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.fail(options.tooLarge());
      },
    });
    body.on('data', this.onData);
    body.on('end', this.onEnd);
    body.on('error', this.onError);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.index < this.parts.length) return Promise.resolve({ value: this.take(), done: false });
    switch (this.state) {
      case 'reading':
        this.body.resume();
        return new Promise<void>((resolve) => {
          this.wake = resolve;
        }).then(() => this.next());
      case 'failed':
        this.state = 'delivered';
        return Promise.reject(this.error);
      default:
        return Promise.resolve({ value: undefined, done: true });
    }
  }

  /** The caller stopped early: the body is destroyed (and its connection with it). */
  return(): Promise<IteratorResult<T, undefined>> {
    if (this.state === 'reading') {
      this.stopReading('delivered');
      this.body.destroy();
    } else {
      this.state = 'delivered';
    }
    this.parts = [];
    return Promise.resolve({ value: undefined, done: true });
  }

  private take(): T {
    const part = this.parts[this.index++]!;
    if (this.index === this.parts.length) {
      this.parts = [];
      this.index = 0;
      this.queuedChars = 0;
    }
    return part;
  }

  private readonly onData = (piece: Buffer | string) => {
    if (this.state !== 'reading') return;
    let text = typeof piece === 'string' ? piece : this.utf8.write(piece);
    if (this.atStart && text !== '') {
      this.atStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte order mark is not part of the stream
    }
    this.parser.feed(text);
    if (this.index === this.parts.length) this.queuedChars = 0;
    else if ((this.queuedChars += text.length) > maxQueuedChars && this.state === 'reading') this.body.pause();
    this.wakeUp();
  };

  private readonly onEnd = () => {
    if (this.state !== 'reading') return;
    this.parser.feed(`${this.utf8.end()}\n\n`); // dispatches a last event that lacks its blank line
    if (this.state !== 'reading') return this.wakeUp();
    try {
      this.decoder.end();
      this.stopReading('ended');
    } catch (error) {
      this.fail(error);
    }
    this.wakeUp();
  };

  private readonly onError = (error: unknown) => {
    if (this.state !== 'reading') return;
    this.fail(this.options.mapError(error));
    this.wakeUp();
  };

  private onEvent(event: EventSourceMessage): void {
    if (this.state !== 'reading') return;
    this.options.watchdog.restart();
    if (event.data.length > this.options.maxEventChars) return this.fail(this.options.tooLarge());
    try {
      const parts = this.decoder.accept(event);
      for (const part of parts) this.parts.push(part);
    } catch (error) {
      return this.fail(error);
    }
    if (this.decoder.failure) this.fail(this.decoder.failure);
    else if (this.decoder.done) this.finishEarly();
  }

  /** The decoder saw the end: the iterator finishes, and the rest of the body is read and dropped. */
  private finishEarly(): void {
    this.stopReading('ended');
    if (this.body.readableEnded) return;
    const timer = setTimeout(() => this.body.destroy(), drainMs).unref();
    this.body.once('close', () => clearTimeout(timer));
    this.body.resume(); // with no 'data' listener left, the rest is dropped; an error of it concerns nobody now
  }

  /** Failures after parts of the same read: the parts are taken first, then next() rejects. */
  private fail(error: unknown): void {
    if (this.state !== 'reading') return;
    this.error = error;
    this.stopReading('failed');
    this.body.destroy();
  }

  private stopReading(state: State): void {
    this.state = state;
    this.options.watchdog.stop();
    this.body.off('data', this.onData);
    this.body.off('end', this.onEnd);
    this.body.off('error', this.onError);
    this.body.on('error', ignore);
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

function ignore(): void {}
