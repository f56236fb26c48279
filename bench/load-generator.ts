// A small closed-loop HTTP/1.1 load generator on raw sockets: each connection sends one request, reads the whole
// response, and sends the next, for a fixed time. Raw sockets and a hand-written response parser keep it cheap
// (it shares the machine with what it measures) and let it time the first body byte of a stream, which
// autocannon and wrk do not report. Keep-alive is used throughout; a closed connection is reopened.

import net from 'node:net';
import { percentile } from './stats.js';

export interface LoadJob {
  host: string;
  port: number;
  path: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  durationMs: number;
  /** Return every request's timings (for merging rounds); otherwise only their percentiles. */
  keepSamples?: boolean;
  /** Open the connections evenly over this long (at most half the duration) instead of all at once. */
  startSpreadMs?: number;
  /**
   * Spread the connections over these ports in turn instead of `port` alone, as a round-robin load balancer in
   * front of several instances would (a reopened connection keeps its port).
   */
  ports?: number[];
  /**
   * Make every request different: each occurrence of this text in the body is replaced by a number no other
   * request of the job has (to measure what a request costs that no cache has seen).
   */
  uniqueMarker?: string;
}

export interface TimingSummary {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export interface LoadResult {
  /** Requests whose response completed within the run's duration. */
  completed: number;
  /** Every response received, late ones and failures included (each one is a request the target handled). */
  responses: number;
  /** Non-2xx answers, broken connections, and streams that ended without `data: [DONE]` or with an error chunk. */
  errors: number;
  statuses: Record<string, number>;
  durationMs: number;
  requestsPerSecond: number;
  /** Request sent → last byte of the response, ms. */
  total: TimingSummary;
  /** Request sent → first byte of the response body (for a stream: the first chunk), ms. */
  firstByte: TimingSummary;
  totalSamples?: number[];
  firstByteSamples?: number[];
  /** A short excerpt of the first failed response, to tell why. */
  firstError?: string;
}

const crlf = Buffer.from('\r\n');
const headEnd = Buffer.from('\r\n\r\n');
const errorMarker = Buffer.from('"finish_reason":"error"');

type Phase = 'head' | 'length-body' | 'chunk-size' | 'chunk-data' | 'chunk-data-end' | 'trailer';

interface ResponseOutcome {
  status: number;
  ok: boolean;
  firstByteAt: number;
  excerpt: string;
}

/** Parses one HTTP/1.1 response at a time from a socket's bytes. */
class ResponseParser {
  private phase: Phase = 'head';
  private pending: Buffer = Buffer.alloc(0);
  private status = 0;
  private remaining = 0;
  private chunked = false;
  private isStream = false;
  private sawError = false;
  private tail = '';
  private firstByteAt = 0;
  private excerpt = '';
  closeAfter = false;

  constructor(private readonly onComplete: (outcome: ResponseOutcome) => void) {}

  feed(data: Buffer): void {
    const input = this.pending.length > 0 ? Buffer.concat([this.pending, data]) : data;
    this.pending = Buffer.alloc(0);
    let offset = 0;
    while (offset < input.length) {
      if (this.phase === 'head') {
        const end = input.indexOf(headEnd, offset);
        if (end === -1) {
          this.pending = input.subarray(offset);
          return;
        }
        this.readHead(input.toString('latin1', offset, end));
        offset = end + headEnd.length;
        if (!this.chunked && this.remaining === 0) this.complete();
        continue;
      }
      if (this.phase === 'length-body') {
        offset = this.takeBody(input, offset);
        if (this.remaining === 0) this.complete();
        continue;
      }
      if (this.phase === 'chunk-size' || this.phase === 'trailer') {
        const end = input.indexOf(crlf, offset);
        if (end === -1) {
          this.pending = input.subarray(offset);
          return;
        }
        const line = input.toString('latin1', offset, end);
        offset = end + crlf.length;
        if (this.phase === 'trailer') {
          if (line === '') this.complete();
          continue;
        }
        const size = Number.parseInt(line, 16);
        if (size === 0) this.phase = 'trailer';
        else {
          this.remaining = size;
          this.phase = 'chunk-data';
        }
        continue;
      }
      if (this.phase === 'chunk-data') {
        offset = this.takeBody(input, offset);
        if (this.remaining === 0) this.phase = 'chunk-data-end';
        continue;
      }
      // chunk-data-end: the CRLF after a chunk's data (it may arrive split).
      if (input.length - offset < 2) {
        this.pending = input.subarray(offset);
        return;
      }
      offset += 2;
      this.phase = 'chunk-size';
    }
  }

  /** Takes what is there of the `remaining` body bytes; returns the offset after them. */
  private takeBody(input: Buffer, offset: number): number {
    const take = Math.min(this.remaining, input.length - offset);
    this.body(input.subarray(offset, offset + take));
    this.remaining -= take;
    return offset + take;
  }

  private readHead(head: string): void {
    this.status = Number(head.slice(9, 12));
    const lower = head.toLowerCase();
    this.chunked = lower.includes('transfer-encoding: chunked');
    this.isStream = lower.includes('text/event-stream');
    this.closeAfter = lower.includes('connection: close');
    const length = /content-length:\s*(\d+)/.exec(lower);
    this.remaining = this.chunked ? 0 : Number(length?.[1] ?? 0);
    this.phase = this.chunked ? 'chunk-size' : 'length-body';
    this.sawError = false;
    this.tail = '';
    this.firstByteAt = 0;
    this.excerpt = '';
  }

  private body(slice: Buffer): void {
    if (slice.length === 0) return;
    if (this.firstByteAt === 0) this.firstByteAt = performance.now();
    if (this.isStream) {
      if (slice.includes(errorMarker)) this.sawError = true;
      this.tail = (this.tail + slice.toString('latin1', Math.max(0, slice.length - 24))).slice(-24);
    }
    if (this.excerpt.length < 300 && (this.status >= 300 || this.sawError)) {
      this.excerpt += slice.toString('utf8', 0, 300);
    }
  }

  private complete(): void {
    const ok =
      this.status >= 200 && this.status < 300 && (!this.isStream || (!this.sawError && this.tail.includes('[DONE]')));
    const firstByteAt = this.firstByteAt || performance.now();
    this.phase = 'head';
    this.onComplete({ status: this.status, ok, firstByteAt, excerpt: this.excerpt || `status ${this.status}` });
  }
}

/** When each connection of a job opens, in ms after the start: evenly over `startSpreadMs` (at most half the run). */
export function connectionOpenDelays(job: Pick<LoadJob, 'connections' | 'durationMs' | 'startSpreadMs'>): number[] {
  const spread = Math.min(job.startSpreadMs ?? 0, job.durationMs / 2);
  return Array.from({ length: job.connections }, (_, index) => (spread * index) / job.connections);
}

/** The port each connection of a job opens to: `port`, or `ports` in turn. */
export function connectionPorts(job: Pick<LoadJob, 'connections' | 'port' | 'ports'>): number[] {
  const ports = job.ports && job.ports.length > 0 ? job.ports : [job.port];
  return Array.from({ length: job.connections }, (_, index) => ports[index % ports.length]!);
}

export function runLoad(job: LoadJob): Promise<LoadResult> {
  const requestTo = (port: number, body: Buffer) => {
    const headerLines = Object.entries({
      host: `${job.host}:${port}`,
      'content-type': 'application/json',
      ...job.headers,
      'content-length': String(body.length),
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    return Buffer.concat([Buffer.from(`POST ${job.path} HTTP/1.1\r\n${headerLines}\r\n`), body]);
  };
  const sameBody = Buffer.from(job.body);
  const requests = new Map(connectionPorts(job).map((port) => [port, requestTo(port, sameBody)]));
  let sent = 0;
  const nextRequest = (port: number): Buffer => {
    if (!job.uniqueMarker) return requests.get(port)!;
    sent += 1;
    return requestTo(port, Buffer.from(job.body.replaceAll(job.uniqueMarker, String(sent))));
  };

  const totals: number[] = [];
  const firstBytes: number[] = [];
  const statuses: Record<string, number> = {};
  let completed = 0;
  let responses = 0;
  let errors = 0;
  let firstError: string | undefined;
  const startedAt = performance.now();
  const endsAt = startedAt + job.durationMs;
  let open = 0;

  return new Promise((resolve) => {
    const finishOne = () => {
      open -= 1;
      if (open > 0) return;
      const durationMs = job.durationMs;
      resolve({
        completed,
        responses,
        errors,
        statuses,
        durationMs,
        requestsPerSecond: (completed / durationMs) * 1000,
        total: summarize(totals),
        firstByte: summarize(firstBytes),
        ...(job.keepSamples ? { totalSamples: totals, firstByteSamples: firstBytes } : {}),
        ...(firstError ? { firstError } : {}),
      });
    };

    const startConnection = (port: number) => {
      open += 1;
      let sentAt = 0;
      let busy = false;
      let finished = false;
      const socket = net.connect({ host: job.host, port, noDelay: true });
      const parser = new ResponseParser((outcome) => {
        busy = false;
        const now = performance.now();
        responses += 1;
        statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
        if (outcome.ok) {
          if (now <= endsAt) completed += 1;
          totals.push(now - sentAt);
          firstBytes.push(outcome.firstByteAt - sentAt);
        } else {
          errors += 1;
          firstError ??= outcome.excerpt.slice(0, 300);
        }
        if (parser.closeAfter) {
          socket.destroy();
          return;
        }
        send();
      });
      const stop = () => {
        if (finished) return;
        finished = true;
        socket.destroy();
        finishOne();
      };
      const send = () => {
        if (performance.now() >= endsAt) return stop();
        busy = true;
        sentAt = performance.now();
        socket.write(nextRequest(port));
      };
      socket.on('connect', send);
      socket.on('data', (data: Buffer) => parser.feed(data));
      socket.on('error', (error) => {
        if (busy) firstError ??= error.message;
      });
      socket.on('close', () => {
        if (finished) return;
        finished = true;
        if (busy) errors += 1; // the response was cut off
        // A connection closed by the server (or broken) is replaced while the run lasts (before this one is
        // counted out, so that the run does not look finished).
        if (performance.now() < endsAt) startConnection(port);
        finishOne();
      });
    };

    const ports = connectionPorts(job);
    connectionOpenDelays(job).forEach((delay, index) => {
      const port = ports[index]!;
      if (delay > 0) setTimeout(() => startConnection(port), delay);
      else startConnection(port);
    });
  });
}

function summarize(samples: number[]): TimingSummary {
  if (samples.length === 0) return { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const sample of sorted) sum += sample;
  return {
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1]!,
    mean: sum / sorted.length,
  };
}

export { summarize };
