// The official conformance suite's server scenarios, all of them (the "all" suite, 2025-11-25): first against the
// reference server alone — the control, every scenario passes — then against the same server placed behind a real
// `switchyard serve`, reached through the hub's `/mcp` with a gateway key. A scenario that fails only behind the
// hub is the hub's; those failing today are listed in expected-failures.yml with the issue item that fixes each.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, writeSettings } from '../../main/mcp/test-support.js';
import { runCli, startServer, stopServer, type RunningServer } from '../support/cli.js';
import {
  describeRun,
  expectedFailures,
  expectedFailuresFile,
  runConformance,
  specVersion,
} from './conformance-suite.js';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';
import { startRenamingProxy, type RenamingProxy } from './renaming-proxy.js';

const env = { SWITCHYARD_SECRET_STORE: 'file' };
/** The reference server's name in mcp_settings.json: the hub shows its tools as `reference__<tool>`. */
const serverName = 'reference';
const suiteArgs = ['--suite', 'all', '--spec-version', specVersion];

let reference: ReferenceServer;
let proxy: RenamingProxy | undefined;
let serve: RunningServer | undefined;
let dataDir: string | undefined;

beforeAll(async () => {
  reference = await startReferenceServer();
});

afterAll(async () => {
  await stopServer(serve);
  await proxy?.close();
  await reference.close();
  if (dataDir) await removeTempDir(dataDir);
});

describe('the conformance suite, server scenarios', () => {
  it('all pass against the reference server alone (the control)', async () => {
    const run = await runConformance('server', ['--url', reference.url, ...suiteArgs]);
    expect(run.scenarios).toHaveLength(32);
    expect(run.failing, describeRun(run)).toEqual([]);
    expect(run.exitCode, run.output).toBe(0);
  }, 120_000);

  it('pass through the hub of `switchyard serve`, but for the expected failures', async () => {
    dataDir = await makeTempDir();
    await writeSettings(dataDir, { [serverName]: { type: 'streamableHttp', url: reference.url } });
    const created = await runCli(
      ['keys', 'create', '--name', 'conformance', '--allow-mcp', '*', '--json', '--data-dir', dataDir],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    proxy = await startRenamingProxy({ prefix: `${serverName}__`, key });
    // The proxy passes Host and Origin as the suite sent them: the hub's own checks decide.
    serve = await startServer(['--no-ui', '--data-dir', dataDir], env);
    proxy.forwardTo(new URL('/mcp', serve.baseUrl).href);

    const run = await runConformance('server', [
      '--url',
      proxy.url,
      ...suiteArgs,
      '--expected-failures',
      expectedFailuresFile,
    ]);
    expect(run.scenarios).toHaveLength(32);
    expect(run.failing, describeRun(run)).toEqual(await expectedFailures('server'));
    expect(run.exitCode, run.output).toBe(0);
  }, 180_000);
});
