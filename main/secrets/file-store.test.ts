import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { inspect, promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSecretStore, tightenSecretsFileMode } from './file-store.js';
import { expectServedFromMemoryUntilInvalidated } from './test-support.js';

let root: string;
let dataDir: string;
let filePath: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'switchyard-file-store-'));
  dataDir = path.join(root, 'data');
  filePath = path.join(dataDir, 'secrets.json');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const execFileAsync = promisify(execFile);
const modeOf = async (target: string) => (await stat(target)).mode & 0o777;

describe('FileSecretStore', () => {
  it('round-trips set, get and delete', async () => {
    const store = new FileSecretStore(filePath);
    expect(store.kind).toBe('file');
    expect(store.location).toBe(filePath);
    expect(await store.get('provider:openai')).toBeNull();

    await store.set('provider:openai', 'sk-one');
    await store.set('provider:anthropic', 'sk-two');
    expect(await store.get('provider:openai')).toBe('sk-one');

    // A fresh instance has no cache, so this proves the values are on disk.
    const reopened = new FileSecretStore(filePath);
    expect(await reopened.get('provider:openai')).toBe('sk-one');
    expect(await reopened.get('provider:anthropic')).toBe('sk-two');

    expect(await reopened.delete('provider:openai')).toBe(true);
    expect(await reopened.delete('provider:openai')).toBe(false);
    expect(await reopened.get('provider:openai')).toBeNull();
    expect(await new FileSecretStore(filePath).get('provider:openai')).toBeNull();
    expect(await new FileSecretStore(filePath).get('provider:anthropic')).toBe('sk-two');
  });

  it('writes valid JSON with mode 0600 in a 0700 data dir and leaves no temp or lock files', async () => {
    const store = new FileSecretStore(filePath);
    await store.set('provider:openai', 'sk-one');
    await store.set('provider:google', 'sk-three');

    expect(JSON.parse(await readFile(filePath, 'utf8'))).toEqual({
      version: 1,
      secrets: { 'provider:google': 'sk-three', 'provider:openai': 'sk-one' },
    });
    expect(await modeOf(filePath)).toBe(0o600);
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await readdir(dataDir)).toEqual(['secrets.json']);
  });

  it('rewrites a too-wide file as 0600', async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(filePath, JSON.stringify({ version: 1, secrets: {} }), { mode: 0o644 });
    await new FileSecretStore(filePath).set('provider:openai', 'sk-one');
    expect(await modeOf(filePath)).toBe(0o600);
  });

  it('keeps both accounts when two instances write the same file concurrently', async () => {
    const first = new FileSecretStore(filePath);
    const second = new FileSecretStore(filePath);
    const writes: Promise<void>[] = [];
    for (let index = 0; index < 15; index += 1) {
      writes.push(first.set(`first:${index}`, `secret-a-${index}`));
      writes.push(second.set(`second:${index}`, `secret-b-${index}`));
    }
    await Promise.all(writes);

    const { secrets } = JSON.parse(await readFile(filePath, 'utf8')) as { secrets: Record<string, string> };
    expect(Object.keys(secrets)).toHaveLength(30);
    for (let index = 0; index < 15; index += 1) {
      expect(secrets[`first:${index}`]).toBe(`secret-a-${index}`);
      expect(secrets[`second:${index}`]).toBe(`secret-b-${index}`);
    }
    expect(await readdir(dataDir)).toEqual(['secrets.json']);
  });

  it('keeps every entry when two processes write the same file at once', { timeout: 60_000 }, async () => {
    const script = path.join(root, 'writer.mts');
    const storeModule = fileURLToPath(new URL('./file-store.ts', import.meta.url));
    await writeFile(
      script,
      `import { FileSecretStore } from ${JSON.stringify(storeModule)};
const [filePath, prefix] = process.argv.slice(2);
const store = new FileSecretStore(filePath);
await Promise.all(Array.from({ length: 20 }, (_, index) => store.set(\`\${prefix}:\${index}\`, \`secret-\${prefix}-\${index}\`)));
`,
    );
    const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
    await Promise.all(
      ['serve', 'cli'].map((prefix) => execFileAsync(process.execPath, [tsxCli, script, filePath, prefix])),
    );

    const { secrets } = JSON.parse(await readFile(filePath, 'utf8')) as { secrets: Record<string, string> };
    expect(Object.keys(secrets)).toHaveLength(40);
    expect(secrets['serve:19']).toBe('secret-serve-19');
    expect(secrets['cli:0']).toBe('secret-cli-0');
    expect(await readdir(dataDir)).toEqual(['secrets.json']);
  });

  it('serves reads from memory until invalidated', async () => {
    await expectServedFromMemoryUntilInvalidated(new FileSecretStore(filePath), new FileSecretStore(filePath));
  });

  it('treats an account named __proto__ like any other', async () => {
    const store = new FileSecretStore(filePath);
    await store.set('__proto__', 'sk-proto');
    expect(await new FileSecretStore(filePath).get('__proto__')).toBe('sk-proto');
    expect(await new FileSecretStore(filePath).get('constructor')).toBeNull();
  });

  it('rejects a corrupt file with an error that names the file but never quotes it', async () => {
    // An unquoted value: V8's JSON.parse message would quote the text around it (…"r:openai":sk-LEAKED-"…).
    const content = '{"version":1,"secrets":{"provider:openai":sk-LEAKED-4242}}';
    await mkdir(dataDir, { recursive: true });
    await writeFile(filePath, content, { mode: 0o600 });
    const store = new FileSecretStore(filePath);

    const error = await store.get('provider:openai').then(
      () => expect.unreachable('get() should reject'),
      (rejection: unknown) => rejection,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(filePath);
    expect((error as Error).message).toMatch(/not valid JSON/);
    // inspect() covers the message, the stack and any cause, as a logger would print them.
    expect(inspect(error)).not.toContain('LEAKED');
    expect(inspect(error)).not.toContain('openai"');

    // A write must not replace the unreadable file: other entries may still be recovered from it by hand.
    await expect(store.set('provider:google', 'sk-new')).rejects.toThrow(filePath);
    expect(await readFile(filePath, 'utf8')).toBe(content);
  });

  it('rejects JSON of the wrong shape without quoting it', async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(filePath, JSON.stringify({ version: 1, secrets: { a: 42, b: 'sk-LEAKED' } }));
    const error = await new FileSecretStore(filePath).get('b').catch((rejection: unknown) => rejection);
    expect((error as Error).message).toMatch(/unexpected structure/);
    expect(inspect(error)).not.toContain('LEAKED');
  });

  it('never puts a secret in validation errors', async () => {
    const store = new FileSecretStore(filePath);
    await expect(store.set('', 'sk-LEAKED')).rejects.toThrow(/non-empty/);
    await expect(store.set('provider:openai', '')).rejects.toThrow(/provider:openai/);
  });
});

describe('tightenSecretsFileMode', () => {
  it('makes a group- or world-readable file 0600 and says so in one line', async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(filePath, '{}', { mode: 0o644 });
    const warning = await tightenSecretsFileMode(filePath);
    expect(warning).toContain(filePath);
    expect(warning).toContain('0644');
    expect(warning).not.toContain('\n');
    expect(await modeOf(filePath)).toBe(0o600);
  });

  it('says nothing for a private or missing file', async () => {
    expect(await tightenSecretsFileMode(filePath)).toBeNull();
    await mkdir(dataDir, { recursive: true });
    await writeFile(filePath, '{}', { mode: 0o600 });
    expect(await tightenSecretsFileMode(filePath)).toBeNull();
  });
});
