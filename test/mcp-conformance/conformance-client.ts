// The client command the conformance suite's client scenarios run (`… conformance-client.ts <server-url>`, with
// MCP_CONFORMANCE_SCENARIO and, for some, MCP_CONFORMANCE_CONTEXT set): Switchyard's own MCP client used as people
// use it. It writes an mcp_settings.json with a remote entry for the URL into a temp data dir and runs the real
// CLI from source — `mcp tools`, `mcp call`, and `mcp login` with BROWSER set to a stand-in that opens the
// authorization link and follows its redirect back to the CLI's loopback listener, as a person clicking "Allow"
// would. One scenario drives the McpManager in-process instead: elicitation-sep1034-client-defaults needs someone
// to accept the server's form, which the CLI cannot show (it declines every question); the stand-in accepts it
// as shown, leaving every field to its default.

import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { cliInvocation } from '../support/cli.js';

/** The entry's name in mcp_settings.json. */
const server = 'conformance';
/** A client ID metadata document URL, used where the authorization server supports them (auth/basic-cimd). */
const clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';
const clientSecretVariable = 'CONFORMANCE_CLIENT_SECRET';

interface Context {
  client_id?: string;
  client_secret?: string;
}

async function switchyard(dataDir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  const invocation = cliInvocation([...args, '--data-dir', dataDir], { SWITCHYARD_SECRET_STORE: 'file', ...env });
  const child = spawn(invocation.command, invocation.args, {
    cwd: invocation.cwd,
    env: invocation.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`switchyard ${args.join(' ')} exited with ${code}`);
}

/** A BROWSER for `mcp login`: opens the link and follows its redirects, back to the CLI's loopback listener. */
async function browserStandIn(dataDir: string): Promise<string> {
  const script = path.join(dataDir, 'browser.sh');
  const open = 'fetch(process.argv[1]).then((answer) => answer.text())';
  await writeFile(script, `#!/bin/sh\nexec "${process.execPath}" -e "${open}" "$1"\n`);
  await chmod(script, 0o755);
  return script;
}

/** elicitation-sep1034-client-defaults: the form accepted as shown; Switchyard's client fills in the defaults. */
async function acceptElicitationAsShown(dataDir: string): Promise<void> {
  // Loaded here alone: every other scenario only starts the CLI, and 18 of them start at once.
  const { McpManager } = await import('../../main/mcp/index.js');
  const manager = new McpManager({
    dataDir,
    logger: pino({ level: 'silent' }),
    watch: false,
    restartPolicy: { maxRestarts: 0 },
  });
  try {
    await manager.start();
    await manager.waitUntilSettled();
    const result = await manager.callTool(
      server,
      'test_client_elicitation_defaults',
      {},
      { onElicitation: async () => ({ action: 'accept', content: {} }) },
    );
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await manager.stop();
  }
}

async function signInAndCall(dataDir: string, context: Context): Promise<void> {
  const env: NodeJS.ProcessEnv = { BROWSER: await browserStandIn(dataDir) };
  const login = ['mcp', 'login', server];
  if (context.client_id !== undefined) {
    login.push('--client-id', context.client_id);
    if (context.client_secret !== undefined) {
      login.push('--client-secret-env', clientSecretVariable);
      env[clientSecretVariable] = context.client_secret;
    }
  }
  await switchyard(dataDir, login, env);
  const call = ['mcp', 'call', server, 'test-tool'];
  // A call refused for want of scope leaves the server at "needs sign-in" (more access): as a person would, sign in
  // again — the new authorization asks for the wider scope — and call once more.
  await switchyard(dataDir, call, env).catch(async () => {
    await switchyard(dataDir, login, env);
    await switchyard(dataDir, call, env);
  });
}

async function run(scenario: string, serverUrl: string, context: Context): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-conformance-client-'));
  try {
    const entry = {
      type: 'streamableHttp',
      url: serverUrl,
      ...(scenario.startsWith('auth/') ? { oauth: { clientMetadataUrl } } : {}),
    };
    await writeFile(path.join(dataDir, 'mcp_settings.json'), JSON.stringify({ mcpServers: { [server]: entry } }));
    if (scenario === 'initialize') return await switchyard(dataDir, ['mcp', 'tools', server]);
    if (scenario === 'tools_call') {
      return await switchyard(dataDir, ['mcp', 'call', server, 'add_numbers', '--args', '{"a":5,"b":3}']);
    }
    if (scenario === 'sse-retry') return await switchyard(dataDir, ['mcp', 'call', server, 'test_reconnection']);
    if (scenario === 'elicitation-sep1034-client-defaults') return await acceptElicitationAsShown(dataDir);
    if (scenario.startsWith('auth/')) return await signInAndCall(dataDir, context);
    throw new Error(`no steps for the scenario "${scenario}"`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const serverUrl = process.argv.at(-1) ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Context;
await run(process.env.MCP_CONFORMANCE_SCENARIO ?? '', serverUrl, context).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
