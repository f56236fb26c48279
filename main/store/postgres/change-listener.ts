// The one connection of an instance that LISTENs for changes (decision 017), outside the pool so that it stays open
// and is never handed to a query that could block it. When it fails, notifications sent meanwhile are lost for
// good: the owner is told at once (it stops vouching for its snapshot), and the listener reconnects with a growing
// delay until it is LISTENing again, then tells the owner to reload everything.

import type pg from 'pg';
import { createClient, withoutSecret } from './pool.js';

export interface ChangeListenerHandlers {
  notification(channel: string, payload: string): void;
  /** The connection failed: what arrives from now on until connected() may be missing. */
  lost(error: Error): void;
  /** LISTENing again after a loss (not called for the first connection). */
  connected(): void;
}

export interface ChangeListenerOptions {
  channels: readonly string[];
  /** The first delay before reconnecting; it doubles up to maxRetryMs. */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

export class ChangeListener {
  private readonly url: string;
  private readonly handlers: ChangeListenerHandlers;
  private readonly channels: readonly string[];
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;
  private client: pg.Client | undefined;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(url: string, handlers: ChangeListenerHandlers, options: ChangeListenerOptions) {
    this.url = url;
    this.handlers = handlers;
    this.channels = options.channels;
    this.firstRetryMs = options.firstRetryMs ?? 100;
    this.maxRetryMs = options.maxRetryMs ?? 5_000;
    this.retryMs = this.firstRetryMs;
  }

  /** Connects and LISTENs; rejects when that fails (at start, the instance cannot run without it). */
  async start(): Promise<void> {
    this.client = await this.connect();
  }

  /** True while the connection is up and LISTENing. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** The listening connection's server process, for tests that cut it (`pg_terminate_backend`). */
  get backendPid(): number | undefined {
    return (this.client as unknown as { processID?: number } | undefined)?.processID;
  }

  /** A short query on the listening connection itself (lease renewals): it fails when the listener is down. */
  async query<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<Row>> {
    if (!this.client) throw new Error('the change listener is not connected');
    return this.client.query<Row>(text, values);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = createClient(this.url);
    client.on('notification', (message) => this.handlers.notification(message.channel, message.payload ?? ''));
    // Both fire when the server ends the session or the network fails; only the first counts.
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.handlers.lost(error);
      this.scheduleReconnect();
    };
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw withoutSecret(error, this.url, 'could not listen for changes on PostgreSQL');
    }
    client.on('error', fail);
    client.on('end', () => fail(new Error('the change listener’s connection ended')));
    return client;
  }

  private scheduleReconnect(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.reconnect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.maxRetryMs);
  }

  private async reconnect(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.connect();
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.retryMs = this.firstRetryMs;
      this.handlers.connected();
    } catch {
      this.scheduleReconnect();
    }
  }
}
