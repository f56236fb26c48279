// A real OTLP/HTTP receiver in its own process (test/support/otlp-receiver.py, run with the test virtualenv's
// official OpenTelemetry protobuf definitions): what the gateway exports is decoded as a collector would, and the
// spans that arrived are read back as JSON.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pythonExecutable } from './python.js';

export interface ReceivedSpan {
  path: string;
  contentType: string;
  headers: Record<string, string>;
  resource: Record<string, unknown>;
  scope: string;
  name: string;
  /** The protobuf enum: 2 SERVER, 3 CLIENT. */
  kind: number;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  startTimeUnixNano: number;
  endTimeUnixNano: number;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  attributes: Record<string, unknown>;
}

export const spanKind = { server: 2, client: 3 } as const;

const script = fileURLToPath(new URL('./otlp-receiver.py', import.meta.url));

export class OtlpReceiver {
  private constructor(
    private readonly child: ChildProcess,
    private readonly file: string,
    /** `http://127.0.0.1:<port>` */
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    if (!fs.existsSync(pythonExecutable)) {
      throw new Error(`${pythonExecutable} is missing: run \`npm run setup -- --test\` to make the test virtualenv`);
    }
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-otlp-')), 'spans.jsonl');
    fs.writeFileSync(file, '');
    const child = spawn(pythonExecutable, [script, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()));
      child.once('close', (code) => reject(new Error(`the OTLP receiver exited with ${code}:\n${stderr}`)));
    });
    return new OtlpReceiver(child, file, `http://127.0.0.1:${port}`);
  }

  /** Every span received so far (a malformed export throws, with the receiver's reason). */
  spans(): ReceivedSpan[] {
    const lines = fs.readFileSync(this.file, 'utf8').split('\n').filter(Boolean);
    return lines.map((line) => {
      const entry = JSON.parse(line) as ReceivedSpan & { error?: string };
      if (entry.error) throw new Error(`the receiver could not decode an export: ${entry.error}`);
      return entry;
    });
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('close', resolve));
    this.child.kill('SIGTERM');
    await exited;
    fs.rmSync(path.dirname(this.file), { recursive: true, force: true });
  }
}
