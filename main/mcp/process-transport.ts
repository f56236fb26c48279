// The stdio transport for local servers. The SDK's StdioClientTransport cannot do what we need: it does not put
// the server in its own process group (so `npx` grandchildren outlive a stop), does not report the exit code,
// and drops non-JSON stdout lines with a bare parse error. This one speaks the same wire format (one JSON-RPC
// message per line) with the SDK's own serializer and schema, and adds those three.

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import spawn from 'cross-spawn';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineSplitter } from './line-splitter.js';
import { killProcessTreeNow, terminateProcessTree } from './process-tree.js';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ProcessTransportOptions {
  command: string;
  args: string[];
  /** The complete environment of the child (nothing else is inherited). */
  env: Record<string, string>;
  cwd?: string;
  /** Every stderr line, from the first byte: start-up errors come before any handshake. */
  onStderrLine?: (line: string) => void;
  /** A stdout line that is not a JSON-RPC message (a banner, a console.log): it is skipped. */
  onNonProtocolLine?: (line: string) => void;
  onExit?: (exit: ExitInfo) => void;
}

/** Servers get this long to exit on their own once stdin closes (the MCP spec's polite shutdown)… */
const stdinGraceMs = 2_000;
/** …and this long after SIGTERM before SIGKILL. */
const terminateGraceMs = 2_000;
/** A descendant that left our group (a daemon) may keep the pipes open; stop waiting for them then. */
const pipeCloseGraceMs = 1_000;

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcessWithoutNullStreams;
  private exitInfo?: ExitInfo;
  private closed = false;
  private untrack?: () => void;

  constructor(private readonly options: ProcessTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the server process ended, once it has. */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessTransport already started');
    const { command, args, env, cwd } = this.options;
    const child = spawn(command, args, {
      env,
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group on POSIX (see process-tree.ts); on Windows this would open a console window.
      detached: process.platform !== 'win32',
      windowsHide: true,
    }) as ChildProcessWithoutNullStreams;
    this.child = child;

    const stdout = new LineSplitter((line) => this.handleStdoutLine(line));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    child.stdout.on('end', () => stdout.flush());
    const stderr = new LineSplitter((line) => this.options.onStderrLine?.(line));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    child.stderr.on('end', () => stderr.flush());
    // Writing to a server that just died gives EPIPE; the exit is what matters and is reported below.
    child.stdin.on('error', (error) => this.onerror?.(error));

    child.on('exit', (code, signal) => {
      this.exitInfo = { code, signal };
      this.options.onExit?.(this.exitInfo);
      // The leader died on its own: take its descendants with it, so the pipes close and nothing lingers.
      if (child.pid !== undefined) void terminateProcessTree(child.pid, terminateGraceMs).catch(() => undefined);
    });
    child.on('close', () => this.markClosed());

    return new Promise((resolve, reject) => {
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        if (child.pid !== undefined) this.untrack = trackProcessTree(child.pid);
        resolve();
      });
      // Kept for the child's whole life: an 'error' event without a listener would crash the app.
      child.on('error', (error) => {
        if (spawned) return this.onerror?.(error);
        this.markClosed();
        reject(error);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends stdin, waits a little, then terminates the whole process tree. Resolves when it is gone. */
  close(): Promise<void> {
    return this.shutDown(true);
  }

  /** For a server that already failed (it hung, it broke the protocol): no point waiting for it to exit politely. */
  terminate(): Promise<void> {
    return this.shutDown(false);
  }

  private async shutDown(polite: boolean): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) {
      this.markClosed();
      return;
    }
    if (!this.exitInfo && polite) {
      child.stdin.end();
      await waitForEvent(child, 'exit', stdinGraceMs);
    }
    // Even after the leader exited, its descendants may live on in the group.
    await terminateProcessTree(child.pid, terminateGraceMs);
    if (!this.closed) await waitForEvent(child, 'close', pipeCloseGraceMs);
    child.stdout.destroy();
    child.stderr.destroy();
    this.markClosed();
  }

  private handleStdoutLine(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch {
      this.options.onNonProtocolLine?.(line);
      return;
    }
    this.onmessage?.(message);
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.untrack?.();
    this.onclose?.();
  }
}

function waitForEvent(child: ChildProcessWithoutNullStreams, event: 'exit' | 'close', timeoutMs: number) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    child.once(event, done);
    function done() {
      clearTimeout(timer);
      child.off(event, done);
      resolve();
    }
  });
}

// The last line of defence when the app exits without stopping its servers (an uncaught error, process.exit):
// kill every tree still running, synchronously, as 'exit' handlers must be.
const liveTrees = new Set<number>();

function killLiveTrees(): void {
  for (const pid of liveTrees) killProcessTreeNow(pid);
}

function trackProcessTree(pid: number): () => void {
  if (liveTrees.size === 0) process.on('exit', killLiveTrees);
  liveTrees.add(pid);
  return () => {
    liveTrees.delete(pid);
    if (liveTrees.size === 0) process.off('exit', killLiveTrees);
  };
}
