// `switchyard mcp …`: the MCP servers of <data-dir>/mcp_settings.json from a terminal. The CLI is short-lived:
// each command starts the servers it needs (no restarts, no file watching), does its work and stops them,
// whole process trees included, before it exits.

import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { EntryReview } from '../../shared/mcp/review-entry.js';
import { resolveDataDir } from '../app/index.js';
import { createLogger } from '../common/index.js';
import { openSecretStore, type SecretStore } from '../secrets/index.js';
import {
  formatLogEntry,
  formatProblem,
  McpManager,
  OAuthCredentials,
  readSettingsFile,
  serveHubOverStdio,
  toolResultText,
  type ServerSnapshot,
} from '../mcp/index.js';
import { formatJson, formatTable, printList, type Output } from './output.js';
import { dataDirOption, databaseUrlOption, hubWaitOption, withApp, type CommandContext } from './program.js';
import { openInBrowser } from './ui-command.js';

interface ManagerRun {
  dataDir?: string;
  /** Start only this server (and require it to connect). */
  server?: string;
  /** The command ends on Ctrl+C by itself (`logs --follow`) instead of being interrupted. */
  runsUntilInterrupted?: boolean;
  /** Where the secret store's warning goes, if a remote server makes us open it. */
  output: Output;
}

export function registerMcpCommands(program: Command, context: CommandContext): void {
  const mcp = program
    .command('mcp')
    .description('the local MCP tool servers configured in <data-dir>/mcp_settings.json');
  const { output } = context;

  mcp
    .command('list')
    .description('start every enabled server, show its status and tool count, then stop them')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: { json?: boolean; dataDir?: string }) =>
      withManager({ dataDir: options.dataDir, output }, async (manager) => {
        const servers = await manager.waitUntilSettled();
        const fileProblems = manager.problems().filter((problem) => problem.server === undefined);
        if (options.json) return output.out(formatJson({ servers, problems: manager.problems() }));
        for (const problem of fileProblems) output.err(`warning: ${manager.settingsPath}: ${formatProblem(problem)}`);
        if (servers.length === 0) {
          return output.out(
            `No MCP servers in ${manager.settingsPath}. Add one there, or import a config: switchyard mcp import FILE`,
          );
        }
        output.out(
          formatTable(
            ['NAME', 'STATUS', 'TOOLS', 'TRANSPORT'],
            servers.map((server) => [
              server.name,
              server.state,
              server.state === 'connected' ? String(server.toolCount) : '-',
              server.transport ?? '-',
            ]),
          ),
        );
        for (const server of servers) {
          if (server.message && server.state !== 'disabled') output.out(`\n${server.name}: ${server.message}`);
          if (server.warning) output.out(`\n${server.name}: warning: ${server.warning}`);
        }
      }),
    );

  mcp
    .command('tools')
    .description('start one server and list its tools')
    .argument('<server>', 'the server name in mcp_settings.json')
    .option('--json', 'print the tools as the server declares them (with inputSchema)')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, options: { json?: boolean; dataDir?: string }) =>
      withManager({ dataDir: options.dataDir, server, output }, async (manager) => {
        printList(output, manager.listTools(server), options.json, {
          empty: `Server "${server}" has no tools.`,
          headers: ['NAME', 'DESCRIPTION'],
          row: (tool) => [tool.name, firstLine(tool.description ?? tool.title ?? '')],
        });
      }),
    );

  mcp
    .command('call')
    .description('start one server and call one of its tools; exits with 1 when the tool reports an error')
    .argument('<server>', 'the server name in mcp_settings.json')
    .argument('<tool>', 'the tool name, as `mcp tools SERVER` shows it')
    .option('--args <json>', 'the arguments as a JSON object', '{}')
    .option('--json', 'print the whole result as JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, tool: string, options: { args: string; json?: boolean; dataDir?: string }) => {
      const args = parseArguments(options.args);
      await withManager({ dataDir: options.dataDir, server, output }, async (manager) => {
        const result = await manager.callTool(server, tool, args);
        output.out(options.json ? formatJson(result) : toolResultText(result));
        if (result.isError) throw new Error(`Tool "${tool}" on server "${server}" returned an error.`);
      });
    });

  mcp
    .command('logs')
    .description('start one server and show what it writes to stderr, from its first line')
    .argument('<server>', 'the server name in mcp_settings.json')
    .option('-f, --follow', 'keep the server running and print new lines until Ctrl+C')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, options: { follow?: boolean; dataDir?: string }) =>
      withManager(
        { dataDir: options.dataDir, runsUntilInterrupted: options.follow ?? false, output },
        async (manager, interrupted) => {
          await requireServer(manager, server);
          const settled = (await manager.waitUntilSettled()).find((snapshot) => snapshot.name === server);
          for (const line of manager.logs(server)) output.out(line);
          if (settled?.state === 'error') output.err(`Server "${server}" failed: ${settled.message ?? 'unknown'}`);
          if (settled?.state === 'disabled') output.err(`Server "${server}" is disabled, so it was not started.`);
          if (!options.follow) return;
          const following = manager.onLogEntry(server, (entry) => output.out(formatLogEntry(entry)));
          await interrupted;
          following.dispose();
        },
        server,
      ),
    );

  mcp
    .command('login')
    .description(
      'sign in to a remote server that wants OAuth: opens the sign-in page in your browser (or prints its link) ' +
        'and waits for it to come back; the tokens go to the secret store',
    )
    .argument('<server>', 'the server name in mcp_settings.json')
    .option('--no-browser', 'only print the link (open it on this machine: the page returns to 127.0.0.1)')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, options: { browser: boolean; dataDir?: string }) =>
      withManager(
        { dataDir: options.dataDir, output },
        async (manager) => {
          await requireServer(manager, server);
          const openAuthorizationUrl = async (url: URL) => {
            output.err(`To sign in to ${server}, open this link in a browser on this machine:\n  ${url.href}`);
            if (!options.browser) return;
            await openInBrowser(url.href).then(
              () => output.err('(opened in your browser; waiting for it to come back)'),
              (error: Error) => output.err(`warning: ${error.message}; open the link yourself.`),
            );
          };
          const snapshot = await manager.signIn(server, { openAuthorizationUrl });
          const tools = snapshot.state === 'connected' ? `; ${snapshot.toolCount} tools` : '';
          output.out(`Signed in to ${server} (${snapshot.state}${tools}).`);
          if (snapshot.state !== 'connected' && snapshot.message) output.out(`${server}: ${snapshot.message}`);
        },
        server,
      ),
    );

  mcp
    .command('logout')
    .description("forget a remote server's OAuth sign-in (deletes its tokens from the secret store)")
    .argument('<server>', 'the server name in mcp_settings.json')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, options: { dataDir?: string }) =>
      withManager(
        { dataDir: options.dataDir, output },
        async (manager) => {
          await requireServer(manager, server);
          const removed = await manager.signOut(server);
          output.out(removed ? `Signed out of ${server}.` : `No sign-in was stored for ${server}.`);
        },
        server,
      ),
    );

  mcp
    .command('serve')
    .description(
      "the MCP hub over stdio: every enabled server's tools, resources and prompts to one MCP client " +
        '(what `switchyard connect claude-desktop` configures); runs until the client closes stdin',
    )
    .addOption(hubWaitOption())
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: { dataDir?: string; hubWait?: number }) =>
      // stdout carries the protocol: nothing else may be printed there (logs go to stderr).
      withApp(context, options, async (app) => {
        await app.mcp.start();
        const ended = serveHubOverStdio(app.mcp, {
          logger: app.logger,
          onToolCall: app.recordHubCall,
          ...(options.hubWait === undefined ? {} : { startupWaitMs: options.hubWait }),
        });
        await Promise.race([ended, untilSignal()]);
      }),
    );

  mcp
    .command('import')
    .description('copy the servers of a Claude Desktop, Cursor or Cline config file into mcp_settings.json')
    .argument('<file>', 'e.g. claude_desktop_config.json, ~/.cursor/mcp.json or cline_mcp_settings.json')
    .option('--overwrite', 'replace servers that have the same name but a different entry')
    .option('--yes', 'import without asking (otherwise it shows what each server runs and asks first)')
    .option('--json', 'print the report as JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (file: string, options: { overwrite?: boolean; yes?: boolean; json?: boolean; dataDir?: string }) => {
      // Through a manager that is never started: it writes the file and runs no server.
      const manager = new McpManager({ dataDir: resolveDataDir(options.dataDir), logger: createLogger('error') });
      const importOptions = { overwrite: options.overwrite ?? false };
      // A server is a program that will run as you, with your files: say exactly what, before it is written
      // where a running Switchyard would start it.
      const preview = await manager.previewImportFile(path.resolve(file), importOptions);
      if (preview.reviews.length > 0 && !options.json) output.out(describeReviews(preview.reviews));
      if (preview.reviews.length > 0 && !options.yes) {
        const confirmed = await confirm(`Import ${preview.reviews.length === 1 ? 'it' : 'them'}? [y/N] `);
        if (!confirmed) {
          throw new Error(
            'Nothing was imported. Run again with --yes to import these servers (answer y when asked, in a terminal).',
          );
        }
      }
      const report = await manager.importConfigFile(path.resolve(file), importOptions);
      if (options.json) return output.out(formatJson(report));
      const lines = [`Imported from ${report.source} file ${file}:`];
      if (report.added.length > 0) lines.push(`  added: ${report.added.join(', ')}`);
      if (report.replaced.length > 0) lines.push(`  replaced: ${report.replaced.join(', ')}`);
      for (const skipped of report.skipped) {
        const fix = skipped.conflict ? '; rename one, or import with --overwrite to replace it' : '';
        lines.push(`  skipped ${skipped.name}: ${skipped.reason}${fix}`);
      }
      if (report.added.length + report.replaced.length + report.skipped.length === 0) lines.push('  no servers in it');
      output.out(lines.join('\n'));
    });
}

/**
 * Runs `work` with a started manager and always stops it. The servers run in their own process groups, so a
 * Ctrl+C in the terminal does not reach them: we catch it and stop them ourselves.
 */
async function withManager(
  run: ManagerRun,
  work: (manager: McpManager, interrupted: Promise<void>) => Promise<void>,
  requiredServer: string | undefined = run.server,
): Promise<void> {
  const dataDir = resolveDataDir(run.dataDir);
  let secrets: Promise<SecretStore> | undefined;
  // Opened only when a remote server has a sign-in to read: the keychain probe costs a round trip.
  const openSecrets = () =>
    (secrets ??= openSecretStore({ dataDir }).then(({ store, warning }) => {
      if (warning) run.output.err(`warning: ${warning}`);
      return store;
    }));
  const manager = new McpManager({
    dataDir,
    oauth: new OAuthCredentials(openSecrets),
    // Failures are reported by the command itself; the log would say the same thing twice.
    logger: createLogger(process.env.SWITCHYARD_LOG_LEVEL ?? 'error'),
    watch: false,
    restartPolicy: { maxRestarts: 0 },
    ...(requiredServer ? { only: [requiredServer] } : {}),
  });
  let interrupt!: () => void;
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  const onSignal = () => interrupt();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await manager.start();
    if (run.server) await requireConnected(manager, run.server);
    const working = work(manager, interrupted);
    if (run.runsUntilInterrupted) await working;
    else await Promise.race([working, interrupted.then(() => Promise.reject(new Error('Interrupted.')))]);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await manager.stop();
  }
}

/** What each server about to be added runs, and what deserves a second look. */
function describeReviews(reviews: EntryReview[]): string {
  const lines = ['These servers will run on this machine, as you, when Switchyard starts them:'];
  for (const review of reviews) {
    lines.push(`  ${review.name}: ${review.runs}`);
    if (review.envNames.length > 0) lines.push(`    with ${review.envNames.join(', ')} set`);
    for (const warning of review.warnings) lines.push(`    warning: ${warning}`);
  }
  return lines.join('\n');
}

/** Asks on the terminal; false when there is none to ask on (a script must say --yes). */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

/** Resolves at the first SIGINT or SIGTERM, so that the command can stop its servers before it exits. */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}

async function requireServer(manager: McpManager, name: string): Promise<ServerSnapshot> {
  const server = manager.server(name);
  if (server) return server;
  // The manager only loaded `name`; the file says what the user could have meant.
  const names = (await readSettingsFile(path.dirname(manager.settingsPath))).entries.map((entry) => entry.name);
  const known = names.length > 0 ? ` Servers there: ${names.join(', ')}.` : '';
  throw new Error(`No MCP server "${name}" in ${manager.settingsPath}.${known}`);
}

async function requireConnected(manager: McpManager, name: string): Promise<void> {
  await requireServer(manager, name);
  const server = (await manager.waitUntilSettled()).find((snapshot) => snapshot.name === name);
  if (server?.state === 'connected') return;
  if (server?.state === 'disabled') {
    throw new Error(`Server "${name}" is disabled in ${manager.settingsPath}; set "disabled": false to use it.`);
  }
  throw new Error(`Server "${name}" did not start: ${server?.message ?? server?.state ?? 'unknown'}`);
}

function parseArguments(json: string): Record<string, unknown> {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch (error) {
    throw new Error(`--args is not valid JSON: ${(error as Error).message}. Example: --args '{"message": "hi"}'`, {
      cause: error,
    });
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new Error(`--args must be a JSON object, like '{"message": "hi"}'.`);
  }
  return args as Record<string, unknown>;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
