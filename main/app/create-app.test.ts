import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from './create-app.js';

const dataDirs: string[] = [];

afterEach(() => {
  for (const dataDir of dataDirs.splice(0)) fs.rmSync(dataDir, { recursive: true, force: true });
});

function openApp(dataDir: string, logLines: string[] = []) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  return createApp({ dataDir, secretStoreMode: 'file', localProviders: false, env: {}, logger: pino(sink) });
}

describe('App.close', () => {
  it('still writes the keys’ last-used times and closes the database when the last usage rows fail', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-app-'));
    dataDirs.push(dataDir);
    const logLines: string[] = [];
    const app = openApp(dataDir, logLines);
    const created = await app.keys.create('client');
    expect(app.keys.authenticate(created.key)).not.toBeNull();
    vi.spyOn(app.usage, 'close').mockImplementation(() => {
      throw new Error('disk full');
    });
    const keysClosed = vi.spyOn(app.keys, 'close');
    const storeClosed = vi.spyOn(app.store, 'close');

    await app.close();

    expect(keysClosed).toHaveBeenCalledOnce();
    expect(storeClosed).toHaveBeenCalledOnce();
    const failure = logLines.map((line) => JSON.parse(line)).find((entry) => entry.level === 50);
    expect(failure).toMatchObject({ msg: 'writing the last usage rows failed', err: { message: 'disk full' } });

    const reopened = openApp(dataDir);
    try {
      expect(reopened.keys.get(created.id)?.last_used_at).not.toBeNull();
    } finally {
      await reopened.close();
    }
  });
});
