// Connect, preview and undo for every tool, in a temporary home: the person's other settings and comments stay,
// each file's first backup is kept across connects, the written files parse and hold exactly what the tool's docs
// ask for, and undo puts every byte (and mode) back.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { ConnectToolId } from '../../shared/bridge/connect-types.js';
import { ConnectError } from './connect-error.js';
import { ToolConnections, type ConnectKeys } from './connections.js';
import { readDotenvValues } from './edit-dotenv.js';

type Parsed = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed config files

const gatewayUrl = 'http://127.0.0.1:7420/api/v1';
const origin = 'http://127.0.0.1:7420';

let root: string;
let home: string;
let keys: FakeKeys;

class FakeKeys implements ConnectKeys {
  readonly live = new Map<string, string>();
  private next = 0;
  async create(name: string) {
    const id = `key-${++this.next}`;
    const key = `sk-sy-v1-secret-${this.next}`;
    this.live.set(id, name);
    return { id, key };
  }
  async delete(id: string) {
    return this.live.delete(id);
  }
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-connect-'));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
  keys = new FakeKeys();
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function connections(env: Record<string, string> = {}) {
  return new ToolConnections({ dataDir: path.join(root, 'data'), keys, home, env });
}

const at = (relative: string) => path.join(home, relative);
const read = (relative: string) => fs.readFileSync(at(relative), 'utf8');
const modeOf = (relative: string) => fs.statSync(at(relative)).mode & 0o777;
const json = (relative: string) => parseJsonc(read(relative)) as Parsed;

function write(relative: string, text: string, mode = 0o644) {
  fs.mkdirSync(path.dirname(at(relative)), { recursive: true });
  fs.writeFileSync(at(relative), text, { mode });
  fs.chmodSync(at(relative), mode);
}

/** Every file under home, relative, with its bytes. */
function snapshot(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(home, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(home, full)] = fs.readFileSync(full, 'base64');
  }
  return files;
}

interface ToolCase {
  tool: ConnectToolId;
  model: string;
  /** Files the person already had, with their settings and comments. */
  existing: Record<string, string>;
  /** Checks the written files hold what the tool needs (and, with existing files, kept the person's). */
  check(secret: string, model: string, hadFiles: boolean): void;
  /** The files that hold the secret (mode 0600). */
  secretFiles: string[];
}

const cases: ToolCase[] = [
  {
    tool: 'codex',
    model: 'openai/gpt-5',
    existing: {
      '.codex/config.toml':
        '# my Codex settings\nmodel = "o3"\napproval_policy = "on-request"\n\n[mcp_servers.fs]\ncommand = "npx" # files\n',
      '.codex/.env': '# mine\nOTHER=1\n',
    },
    secretFiles: ['.codex/.env'],
    check(secret, model, hadFiles) {
      const text = read('.codex/config.toml');
      const config = parseToml(text) as Parsed;
      // What Codex's docs require of a custom provider: its table, and model_provider/model at the root.
      expect(config.model_provider).toBe('switchyard');
      expect(config.model).toBe(model);
      expect({ ...config.model_providers.switchyard }).toEqual({
        name: 'Switchyard',
        base_url: `${origin}/v1`,
        env_key: 'SWITCHYARD_API_KEY',
        wire_api: 'responses',
      });
      const env = readDotenvValues(read('.codex/.env'));
      expect(env.SWITCHYARD_API_KEY).toBe(secret);
      if (hadFiles) {
        expect(config.approval_policy).toBe('on-request');
        expect(config.mcp_servers.fs.command).toBe('npx');
        expect(text).toContain('# my Codex settings');
        expect(text).toContain('command = "npx" # files');
        expect(Object.keys(config).sort()).toEqual(
          ['approval_policy', 'mcp_servers', 'model', 'model_provider', 'model_providers'].sort(),
        );
        expect(env).toEqual({ OTHER: '1', SWITCHYARD_API_KEY: secret });
        expect(read('.codex/.env')).toContain('# mine');
      } else {
        expect(Object.keys(config).sort()).toEqual(['model', 'model_provider', 'model_providers']);
        expect(env).toEqual({ SWITCHYARD_API_KEY: secret });
      }
    },
  },
  {
    tool: 'claude-code',
    model: 'anthropic/claude-sonnet-4-5',
    existing: {
      '.claude/settings.json': '{\n  "permissions": { "allow": ["Bash(ls)"] },\n  "env": { "FOO": "bar" }\n}\n',
    },
    secretFiles: ['.claude/settings.json'],
    check(secret, model, hadFiles) {
      const settings = json('.claude/settings.json');
      expect(settings.env).toEqual({
        ...(hadFiles ? { FOO: 'bar' } : {}),
        ANTHROPIC_BASE_URL: origin,
        ANTHROPIC_AUTH_TOKEN: secret,
        ANTHROPIC_MODEL: model,
        ANTHROPIC_DEFAULT_OPUS_MODEL: model,
        ANTHROPIC_DEFAULT_SONNET_MODEL: model,
        ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
      });
      expect(Object.keys(settings)).toEqual(hadFiles ? ['permissions', 'env'] : ['env']);
      if (hadFiles) expect(settings.permissions).toEqual({ allow: ['Bash(ls)'] });
    },
  },
  {
    tool: 'gemini-cli',
    model: 'google/gemini-2.5-pro',
    existing: {
      '.gemini/.env': '# mine\nGEMINI_API_KEY=old-google-key\nDEBUG=1\n',
      '.gemini/settings.json': '{\n  // my theme\n  "ui": { "theme": "GitHub" }\n}\n',
    },
    secretFiles: ['.gemini/.env'],
    check(secret, model, hadFiles) {
      const env = readDotenvValues(read('.gemini/.env'));
      expect(env).toEqual({
        GEMINI_API_KEY: secret,
        ...(hadFiles ? { DEBUG: '1' } : {}),
        GOOGLE_GEMINI_BASE_URL: origin,
        GEMINI_MODEL: model,
      });
      const settings = json('.gemini/settings.json');
      expect(settings.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
      expect(Object.keys(settings)).toEqual(hadFiles ? ['ui', 'security'] : ['security']);
      if (hadFiles) {
        expect(read('.gemini/.env')).toContain('# mine');
        expect(read('.gemini/settings.json')).toContain('// my theme');
      }
    },
  },
  {
    tool: 'opencode',
    model: 'openai/gpt-4o-mini',
    existing: {
      '.config/opencode/opencode.json':
        '{\n  "$schema": "https://opencode.ai/config.json",\n  "theme": "tokyonight",\n  "provider": { "anthropic": { "options": { "timeout": 1000 } } }\n}\n',
    },
    secretFiles: ['.config/opencode/opencode.json'],
    check(secret, model, hadFiles) {
      const config = json('.config/opencode/opencode.json');
      expect(config.provider.switchyard).toEqual({
        npm: '@ai-sdk/openai-compatible',
        name: 'Switchyard',
        options: { baseURL: `${origin}/v1`, apiKey: secret },
        models: { [model]: { name: model } },
      });
      expect(config.model).toBe(`switchyard/${model}`);
      expect(config.$schema).toBe('https://opencode.ai/config.json');
      expect(Object.keys(config).sort()).toEqual(
        (hadFiles ? ['$schema', 'theme', 'provider', 'model'] : ['$schema', 'provider', 'model']).sort(),
      );
      if (hadFiles) expect(config.provider.anthropic).toEqual({ options: { timeout: 1000 } });
    },
  },
  {
    tool: 'qwen-code',
    model: 'openai/gpt-4o',
    existing: {
      '.qwen/settings.json':
        '{\n  "modelProviders": { "openai": [{ "id": "gpt-4o", "envKey": "OPENAI_API_KEY" }] },\n  "ui": { "theme": "Qwen Dark" }\n}\n',
      '.qwen/.env': 'OPENAI_API_KEY=sk-mine\n',
    },
    secretFiles: ['.qwen/.env'],
    check(secret, model, hadFiles) {
      const settings = json('.qwen/settings.json');
      const ours = { id: model, name: `${model} (Switchyard)`, baseUrl: `${origin}/v1`, envKey: 'SWITCHYARD_API_KEY' };
      expect(settings.modelProviders.openai).toEqual(
        hadFiles ? [ours, { id: 'gpt-4o', envKey: 'OPENAI_API_KEY' }] : [ours],
      );
      expect(settings.security).toEqual({ auth: { selectedType: 'openai' } });
      expect(settings.model).toEqual({ name: model });
      expect(readDotenvValues(read('.qwen/.env'))).toEqual({
        ...(hadFiles ? { OPENAI_API_KEY: 'sk-mine' } : {}),
        SWITCHYARD_API_KEY: secret,
      });
      if (hadFiles) expect(settings.ui).toEqual({ theme: 'Qwen Dark' });
    },
  },
  {
    tool: 'continue',
    model: 'openai/gpt-4o',
    existing: {
      '.continue/config.yaml':
        '# my Continue config\nname: Mine\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: GPT # direct\n    provider: openai\n    model: gpt-4o\n',
    },
    secretFiles: ['.continue/config.yaml'],
    check(secret, model, hadFiles) {
      const text = read('.continue/config.yaml');
      const config = parseYaml(text) as Parsed;
      const ours = { name: `Switchyard ${model}`, provider: 'openai', model, apiBase: `${origin}/v1`, apiKey: secret };
      expect(config.models).toEqual(hadFiles ? [{ name: 'GPT', provider: 'openai', model: 'gpt-4o' }, ours] : [ours]);
      expect(config.schema).toBe('v1');
      expect(config.name).toBe(hadFiles ? 'Mine' : 'Local Config');
      if (hadFiles) {
        expect(text).toContain('# my Continue config');
        expect(text).toContain('# direct');
      }
    },
  },
];

describe.each(cases)('connect $tool', ({ tool, model, existing, check, secretFiles }) => {
  it('previews without writing a file or creating a key', () => {
    const before = snapshot();
    const preview = connections().preview(tool, { gatewayUrl, model });
    expect(snapshot()).toEqual(before);
    expect(keys.live.size).toBe(0);
    expect(fs.existsSync(path.join(root, 'data'))).toBe(false);
    expect(preview.files.length).toBeGreaterThan(0);
    expect(preview.files.map((file) => file.text).join('')).toContain('PASTE_YOUR_SWITCHYARD_KEY');
  });

  it('writes new files that hold what the tool needs, and undo removes them', async () => {
    const { result, secret } = await connections().connect(tool, { gatewayUrl, model });
    check(secret!, model, false);
    expect(result.files.every((file) => file.created && file.backupPath === null)).toBe(true);
    for (const file of secretFiles) expect(modeOf(file)).toBe(0o600);
    expect([...keys.live.values()]).toEqual([tool]);
    expect(
      connections()
        .list()
        .find((info) => info.id === tool),
    ).toMatchObject({ connected: true, model });

    const undone = await connections().undo(tool);
    expect(undone.files.every((file) => file.action === 'removed')).toBe(true);
    expect(snapshot()).toEqual({});
    expect(keys.live.size).toBe(0);
  });

  it('keeps the person’s settings, keeps the first backup across connects, and undo restores every byte', async () => {
    for (const [file, text] of Object.entries(existing)) write(file, text);
    const original = snapshot();

    const first = await connections().connect(tool, { gatewayUrl, model: 'first/model' });
    for (const change of first.result.files) {
      expect(change.created).toBe(false);
      expect(fs.readFileSync(change.backupPath!, 'base64')).toBe(original[path.relative(home, change.path)]);
    }
    const second = await connections().connect(tool, { gatewayUrl, model });
    check(second.secret!, model, true);
    for (const file of secretFiles) expect(modeOf(file)).toBe(0o600);
    // The backups still hold the files as they were before the first connect, not as the first connect left them.
    expect(second.result.files.map((change) => change.backupPath)).toEqual(
      first.result.files.map((change) => change.backupPath),
    );
    for (const change of second.result.files) {
      expect(fs.readFileSync(change.backupPath!, 'base64')).toBe(original[path.relative(home, change.path)]);
    }
    // The key rotated: one key for the tool, the new one.
    expect(second.result.replacedKeyId).toBe(first.result.keyId);
    expect([...keys.live.keys()]).toEqual([second.result.keyId]);

    const undone = await connections().undo(tool);
    expect(undone).toMatchObject({ wasConnected: true, deletedKeyId: second.result.keyId });
    expect(undone.files.every((file) => file.action === 'restored' && file.savedAs === null)).toBe(true);
    expect(snapshot()).toEqual(original);
    for (const file of Object.keys(existing)) expect(modeOf(file)).toBe(0o644);
    expect(keys.live.size).toBe(0);

    expect(await connections().undo(tool)).toMatchObject({ wasConnected: false, files: [] });
    expect(snapshot()).toEqual(original);
  });
});

describe('connect', () => {
  it('keeps edits made after connect in a copy when undoing', async () => {
    write('.claude/settings.json', '{ "theme": "dark" }\n');
    await connections().connect('claude', { gatewayUrl, model: 'a/b' });
    fs.appendFileSync(at('.claude/settings.json'), '\n');
    const undone = await connections().undo('claude-code');
    expect(undone.files[0]).toMatchObject({
      action: 'restored',
      savedAs: `${at('.claude/settings.json')}.switchyard-replaced`,
    });
    expect(read('.claude/settings.json')).toBe('{ "theme": "dark" }\n');
    expect(read('.claude/settings.json.switchyard-replaced')).toContain('ANTHROPIC_BASE_URL');
  });

  it('leaves a file it cannot read alone, and creates no key', async () => {
    write('.claude/settings.json', '{ "env": ');
    await expect(connections().connect('claude-code', { gatewayUrl })).rejects.toThrow(ConnectError);
    expect(read('.claude/settings.json')).toBe('{ "env": ');
    expect(keys.live.size).toBe(0);
    expect(
      connections()
        .list()
        .find((info) => info.id === 'claude-code')?.connected,
    ).toBe(false);
  });

  it('refuses a Codex config laid out in a way it cannot edit line by line, naming the lines to add', async () => {
    const text = 'model_providers.switchyard.name = "mine"\n';
    write('.codex/config.toml', text);
    await expect(connections().connect('codex', { gatewayUrl })).rejects.toThrow(/\[model_providers\.switchyard\]/);
    expect(read('.codex/config.toml')).toBe(text);
    expect(keys.live.size).toBe(0);
  });

  it('follows CODEX_HOME and edits opencode.jsonc, keeping its comments', async () => {
    write('.config/opencode/opencode.jsonc', '{\n  // my comment\n  "theme": "x",\n}\n');
    await connections({ CODEX_HOME: at('codex-home') }).connect('codex', { gatewayUrl });
    expect(parseToml(read('codex-home/config.toml'))).toMatchObject({ model_provider: 'switchyard' });
    await connections().connect('opencode', { gatewayUrl, model: 'a/b' });
    expect(read('.config/opencode/opencode.jsonc')).toContain('// my comment');
    expect(fs.existsSync(at('.config/opencode/opencode.json'))).toBe(false);
  });

  it('needs a model for tools that list models, and says which tools exist', async () => {
    await expect(connections().connect('opencode', { gatewayUrl })).rejects.toThrow(/needs one: add --model/);
    await expect(connections().connect('vim', { gatewayUrl })).rejects.toThrow(/Known tools: codex, claude-code/);
    await expect(connections().connect('codex', { gatewayUrl: 'ftp://x' })).rejects.toThrow(ConnectError);
    expect(keys.live.size).toBe(0);
  });

  it('reaches a gateway bound to every interface through loopback', () => {
    const preview = connections().preview('gemini', { gatewayUrl: 'http://0.0.0.0:9000/api/v1' });
    expect(preview.files[0]!.text).toContain('GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9000\n');
  });
});
