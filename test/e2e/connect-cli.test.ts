// `switchyard connect` as a user runs it, in a temporary HOME next to a running `switchyard serve`: the config it
// writes for opencode reaches the gateway with a key named after the tool, `--print` changes nothing, and
// `--undo` (twice) leaves the home as it was and the key deleted.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpServe, runCli, startServer, type RunningServer } from '../support/cli.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';

let root: string;
let home: string;
let dataDir: string;
let fake: FakeUpstream;
let server: RunningServer | undefined;

function cli(...args: string[]) {
  return runCli([...args, '--data-dir', dataDir], {
    env: { SWITCHYARD_SECRET_STORE: 'file', HOME: home, XDG_CONFIG_HOME: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' },
  });
}

function filesUnder(directory: string): string[] {
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-connect-e2e-'));
  home = path.join(root, 'home');
  dataDir = path.join(root, 'data');
  fs.mkdirSync(home);
  fake = await startFakeUpstream({ models: ['echo-1'] });
});

afterAll(() => cleanUpServe(root, [server], [fake]));

describe('switchyard connect', () => {
  it('connects opencode to the running gateway with its own key, and undoes it', async () => {
    expect((await cli('providers', 'add', 'up', '--kind', 'openai', '--base-url', fake.baseUrl)).code).toBe(0);
    server = await startServer(['--data-dir', dataDir], { SWITCHYARD_SECRET_STORE: 'file' });
    const origin = new URL(server.baseUrl).origin;

    const printed = await cli('connect', 'codex', '--print', '--gateway-url', origin);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toContain('wire_api = "responses"');
    expect(printed.stdout).toContain('SWITCHYARD_API_KEY=PASTE_YOUR_SWITCHYARD_KEY');
    expect(filesUnder(home)).toEqual([]);

    const connected = await cli('connect', 'opencode', '--model', 'up/echo-1', '--gateway-url', origin);
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.stdout).toContain('Connected opencode to the gateway');
    expect(connected.stdout).toContain(
      '.config/opencode/opencode.json (new file; holds the key, readable by you only)',
    );
    expect(filesUnder(home)).toEqual(['.config/opencode/opencode.json']);
    const configPath = path.join(home, '.config/opencode/opencode.json');
    expect(fs.statSync(configPath).mode & 0o777).toBe(0o600);

    // What opencode would do with the file: its provider's base URL and key, and the model it names.
    const config = parseJsonc(fs.readFileSync(configPath, 'utf8')) as {
      model: string;
      provider: { switchyard: { options: { baseURL: string; apiKey: string } } };
    };
    expect(connected.stdout).not.toContain(config.provider.switchyard.options.apiKey);
    const client = new OpenAI({ ...config.provider.switchyard.options, maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: config.model.replace(/^switchyard\//, ''),
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.model).toBe('up/echo-1');

    const keys = JSON.parse((await cli('keys', 'list', '--json')).stdout) as { id: string; name: string }[];
    expect(keys.map((key) => key.name)).toEqual(['opencode']);
    const listed = JSON.parse((await cli('connect', '--list', '--json')).stdout) as {
      id: string;
      connected: boolean;
    }[];
    expect(listed.filter((tool) => tool.connected).map((tool) => tool.id)).toEqual(['opencode']);

    const undone = await cli('connect', '--undo', 'opencode');
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain(`${configPath}: removed (connect had created it)`);
    expect(undone.stdout).toContain(`Deleted key ${keys[0]!.id}.`);
    expect(filesUnder(home)).toEqual([]);
    await expect(client.models.list()).rejects.toMatchObject({ status: 401 });

    const again = await cli('connect', '--undo', 'opencode');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('opencode is not connected: nothing to undo.\n');
  });

  it('says what is missing in one line', async () => {
    const noModel = await cli('connect', 'continue');
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toContain('Continue lists its models in its own config, so it needs one');
    const unknown = await cli('connect', 'vim');
    expect(unknown.stderr).toContain('There is no tool "vim" to connect.');
  });
});
