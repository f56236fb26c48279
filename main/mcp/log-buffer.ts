// The last lines a server wrote to stderr (plus our own notes on its life), captured from the first byte, so the
// reason a server will not start is there to show. Bounded: a chatty server must not grow memory forever.

import { Emitter } from '../../shared/events/index.js';

export const defaultLogLines = 500;

export interface LogEntry {
  /** `stdout` holds only non-protocol lines; `switchyard` marks our own notes (started, exited, restarting). */
  source: 'stderr' | 'stdout' | 'switchyard';
  text: string;
}

export class LogBuffer {
  private readonly entries: LogEntry[] = [];
  private readonly entryAddedEmitter = new Emitter<LogEntry>();
  readonly onEntryAdded = this.entryAddedEmitter.event;

  constructor(private readonly maxLines = defaultLogLines) {}

  add(source: LogEntry['source'], text: string): void {
    const entry = { source, text };
    this.entries.push(entry);
    if (this.entries.length > this.maxLines) this.entries.splice(0, this.entries.length - this.maxLines);
    this.entryAddedEmitter.fire(entry);
  }

  entriesSnapshot(): LogEntry[] {
    return [...this.entries];
  }

  /** The last `count` lines the server itself wrote to stderr. */
  stderrTail(count: number): string[] {
    return this.entries
      .filter((entry) => entry.source === 'stderr')
      .slice(-count)
      .map((entry) => entry.text);
  }
}

/** One line for people: stderr as written, the rest bracketed so it cannot pass for the server's own output. */
export function formatLogEntry(entry: LogEntry): string {
  return entry.source === 'stderr' ? entry.text : `[${entry.source}] ${entry.text}`;
}
