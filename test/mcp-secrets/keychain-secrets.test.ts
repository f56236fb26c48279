// `${secret:NAME}` with the OS keychain: the app (as `switchyard serve` and the desktop app run it) and
// `switchyard mcp import`, in a private D-Bus session with gnome-keyring (test/support/keyring-session.ts). The
// form's secret and the imported one are found in the keychain under service "Switchyard", a server starts with its
// value, the bridge gives back only the last four characters, and no file of the data folder — the settings, the
// SQLite database and its -wal — holds either value.

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { everythingBin } from '../../main/mcp/test-support.js';
import {
  createKeyringSandbox,
  filesUnder,
  repoRoot,
  skipWithoutKeyring,
  type KeyringSandbox,
} from '../support/keyring-session.js';

const at = (file: string) => JSON.stringify(path.join(repoRoot, file));

const childScript = `
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createApp } from ${at('main/app/index.ts')};
import { createBridgeHandlers } from ${at('main/bridge/create-bridge-handlers.ts')};
import { registerMcpCommands } from ${at('main/cli/mcp-commands.ts')};
import { noApp, runCommands } from ${at('main/cli/test-support.ts')};
import { createLogger } from ${at('main/common/index.ts')};

const [dataDir, formSecret, importedSecret, everythingBin] = process.argv.slice(2);
const keytar = createRequire(${at('package.json')})('keytar');
const holding = async () => {
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const found = [];
  for (const file of files) {
    const text = await readFile(file, 'latin1');
    if (text.includes(formSecret) || text.includes(importedSecret)) found.push(path.basename(file));
  }
  return { files: files.map((file) => path.basename(file)).sort(), found };
};

const app = createApp({ dataDir, secretStoreMode: 'keychain', localProviders: false, logger: createLogger('silent') });
await app.mcp.start();
const bridge = createBridgeHandlers(app, { appInfo: () => ({ version: 'test', gatewayUrl: null }) });
const saved = await bridge.invoke('mcp:set-server', {
  name: 'everything',
  entry: { command: process.execPath, args: [everythingBin, 'stdio'], env: { GITHUB_TOKEN: '' } },
  secrets: { env: { GITHUB_TOKEN: formSecret } },
});
await app.mcp.waitUntilSettled();
const env = JSON.parse((await app.mcp.callTool('everything', 'get-env')).content[0].text);
const settings = await bridge.invoke('mcp:get-settings', {});
const whileRunning = await holding();
bridge.dispose();
await app.close();

process.env.SWITCHYARD_SECRET_STORE = 'keychain';
const config = path.join(path.dirname(dataDir), 'claude_desktop_config.json');
await writeFile(config, JSON.stringify({ mcpServers: { api: { url: 'https://mcp.example.com/mcp',
  headers: { Authorization: importedSecret } } } }));
const out = [];
const err = [];
await runCommands(registerMcpCommands, { out, err }, noApp('none'), ['mcp', 'import', config, '--yes', '--data-dir', dataDir]);

console.log(JSON.stringify({
  saved: saved.ok && saved.value.saved,
  startedWith: env.GITHUB_TOKEN,
  settingsHoldsSecret: JSON.stringify(settings).includes(formSecret),
  hints: settings.value.secrets,
  whileRunning,
  afterImport: await holding(),
  importOutput: out.join('\\n'),
  inKeychain: await keytar.getPassword('Switchyard', 'mcp/everything.GITHUB_TOKEN'),
  importedInKeychain: await keytar.getPassword('Switchyard', 'mcp/api.Authorization'),
  settingsFile: JSON.parse(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8')),
}));
process.exit(0);
`;

let sandbox: KeyringSandbox | undefined;

afterAll(async () => {
  await sandbox?.remove();
});

describe.skipIf(skipWithoutKeyring)('${secret:NAME} with the OS keychain', () => {
  it(
    'keeps the form’s and the import’s secrets in the keychain and out of every file',
    { timeout: 120_000 },
    async () => {
      sandbox = await createKeyringSandbox();
      const formSecret = `ghp_keychain-${randomUUID()}`;
      const importedSecret = `Bearer imported-${randomUUID()}`;
      const run = await sandbox.run(childScript, [sandbox.dataDir, formSecret, importedSecret, everythingBin], {
        timeoutMs: 90_000,
      });
      const context = `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;
      expect(run.code, context).toBe(0);
      const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');

      expect(result.saved, context).toBe(true);
      expect(result.startedWith).toBe(formSecret);
      expect(result.settingsHoldsSecret).toBe(false);
      expect(result.hints).toEqual([
        { name: 'everything.GITHUB_TOKEN', servers: ['everything'], masked: `••••${formSecret.slice(-4)}` },
      ]);
      // The database and its write-ahead log were there to be scanned, and nothing held a secret.
      expect(result.whileRunning.files).toEqual(expect.arrayContaining(['mcp_settings.json', 'switchyard.db-wal']));
      expect(result.whileRunning.found).toEqual([]);
      expect(result.afterImport.found).toEqual([]);
      expect(result.importOutput).toContain('moved to OS keychain (service "Switchyard"): api: Authorization (header)');
      expect(result.inKeychain).toBe(formSecret);
      expect(result.importedInKeychain).toBe(importedSecret);
      expect(result.settingsFile.mcpServers).toEqual({
        everything: expect.objectContaining({ env: { GITHUB_TOKEN: '${secret:everything.GITHUB_TOKEN}' } }),
        api: { url: 'https://mcp.example.com/mcp', headers: { Authorization: '${secret:api.Authorization}' } },
      });
      for (const file of await filesUnder(sandbox.dataDir)) {
        const text = await readFile(file, 'latin1');
        expect(text, file).not.toContain(formSecret);
        expect(text, file).not.toContain(importedSecret);
      }
      expect(await sandbox.leftoverProcesses(), 'processes left running by the keychain session').toEqual([]);
    },
  );
});
