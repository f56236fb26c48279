// Turns a stream of text chunks into whole lines; a line split across chunks is joined before it is handed on.

export class LineSplitter {
  private pending = '';

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxPendingChars = 10 * 1024 * 1024,
  ) {}

  push(chunk: string): void {
    this.pending += chunk;
    let newline = this.pending.indexOf('\n');
    while (newline !== -1) {
      this.onLine(this.pending.slice(0, newline).replace(/\r$/, ''));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    // A process writing megabytes without a newline is broken; keep memory bounded.
    if (this.pending.length > this.maxPendingChars) this.flush();
  }

  /** Hands on the unterminated rest, e.g. when the stream ends. */
  flush(): void {
    if (this.pending !== '') this.onLine(this.pending);
    this.pending = '';
  }
}
