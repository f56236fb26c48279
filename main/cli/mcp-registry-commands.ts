// `switchyard mcp search TEXT` and `switchyard mcp install NAME[@VERSION]`: servers from an MCP Registry (the
// official one, or the one in the app's settings, or `--registry URL`). Install shows exactly what will run and asks
// before it writes; run again on an installed server, it offers the registry's newer version, showing the change.

import { InvalidArgumentError, type Command } from 'commander';
import type { RegistrySearchResult } from '../../shared/mcp/registry-types.js';
import type { EntryReview } from '../../shared/mcp/review-entry.js';
import { RegistrySetting, type App } from '../app/index.js';
import {
  RegistryClient,
  commitInstall,
  describeMissing,
  isNewerVersion,
  prepareInstall,
  previewInstall,
  searchRegistry,
  secretStoreSink,
  serverSearchPath,
  type InstallInput,
  type PreparedInstall,
} from '../mcp/index.js';
import { collectConfig, installBundle, isBundleArgument, type BundleInstallFlags } from './mcp-bundle-install.js';
import { withApp, type CommandContext } from './command-context.js';
import { formatJson, formatTable, type Output } from './output.js';
import { readSecretFromStdin } from './read-secret.js';
import { dataDirOption, databaseUrlOption, parseIntegerOption } from './shared-options.js';
import { ask, confirm } from './terminal-prompts.js';

interface RegistryFlags {
  registry?: string;
  dataDir?: string;
  databaseUrl?: string;
}

interface InstallFlags extends RegistryFlags, BundleInstallFlags {
  yes?: boolean;
  env: Record<string, string>;
  arg: Record<string, string>;
  header: Record<string, string>;
  name?: string;
}

export function registerMcpRegistryCommands(mcp: Command, context: CommandContext): void {
  mcp
    .command('search')
    .description('search the MCP Registry: name, description, version, how each server runs, whether it needs secrets')
    .argument('<text>', 'words in the server name')
    .option('--registry <url>', "the registry to ask (default: the app's setting, else the official registry)")
    .option('--limit <n>', 'servers per page (1–100)', parseIntegerOption(1, 100))
    .option('--cursor <cursor>', 'the page after the one that printed this cursor')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (text: string, options: RegistryFlags & { limit?: number; cursor?: string; json?: boolean }) =>
      withApp(context, options, async (app) => {
        const client = registryClient(app, options);
        const page = await searchRegistry(client, app.mcp, {
          search: text,
          ...(options.cursor ? { cursor: options.cursor } : {}),
          ...(options.limit ? { limit: options.limit } : {}),
        });
        if (options.json) return context.output.out(formatJson(page));
        for (const skipped of page.skipped) context.output.err(`warning: skipped: ${skipped}`);
        printResults(context.output, page.servers, text, client.baseUrl);
        if (page.nextCursor) {
          context.output.err(`More: switchyard mcp search ${JSON.stringify(text)} --cursor ${page.nextCursor}`);
        }
      }),
    );

  mcp
    .command('install')
    .description(
      'install a server from the MCP Registry into mcp_settings.json, version pinned; shows what it runs and asks ' +
        'first. Package rule: npm (npx), else PyPI (uvx), else OCI (docker), else a remote. On an installed server ' +
        'it offers the newer version',
    )
    .argument(
      '<name>',
      'the registry name, e.g. io.github.user/weather, or NAME@VERSION; or an MCP bundle file, e.g. ./server.mcpb',
    )
    .option('--registry <url>', "the registry to ask (default: the app's setting, else the official registry)")
    .option('--env <NAME=VALUE>', 'a declared environment variable (repeatable)', collectPair('--env'), {})
    .option(
      '--arg <NAME=VALUE>',
      'a declared argument or {variable}, e.g. --arg port=8080 (repeatable)',
      collectPair('--arg'),
      {},
    )
    .option('--header <NAME=VALUE>', "a remote server's declared header (repeatable)", collectPair('--header'), {})
    .option('--name <entry>', 'the name in mcp_settings.json (default: the part after the registry name’s "/")')
    .option('--config <KEY=VALUE>', "a bundle's user_config setting (repeatable; again for several)", collectConfig, {})
    .option('--yes', 'install without asking (otherwise it shows what the server runs and asks first)')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (nameAndVersion: string, options: InstallFlags) =>
      withApp(context, options, async (app) =>
        (await isBundleArgument(nameAndVersion))
          ? installBundle(app, context.output, nameAndVersion, options)
          : install(app, context.output, nameAndVersion, options),
      ),
    );
}

async function install(app: App, output: Output, nameAndVersion: string, options: InstallFlags): Promise<void> {
  if (Object.keys(options.config).length > 0) {
    throw new InvalidArgumentError(`--config is for bundles (.mcpb); ${nameAndVersion} takes --env and --arg.`);
  }
  const [name, version] = splitVersion(nameAndVersion);
  const client = registryClient(app, options);
  const prepared = await prepareInstall(app.mcp, client, {
    name,
    ...(version ? { version } : {}),
    ...(options.name ? { entryName: options.name } : {}),
  });
  const found = prepared.found.server;
  if (prepared.installed && !version && !isNewerVersion(found.version, prepared.installed.version)) {
    output.out(`${found.name} ${prepared.installed.version} is installed as "${prepared.entryName}" and up to date.`);
    return;
  }
  const values = givenValues(prepared, options);
  if (process.stdin.isTTY && !options.yes) await askForValues(prepared, values);
  const preview = await previewInstall(prepared, values, await serverSearchPath());
  if (preview.missing.length > 0) throw new Error(describeMissing(preview.missing));
  if (preview.missingRuntime) throw new Error(`${preview.missingRuntime} Nothing was written.`);
  output.out(describeInstall(prepared, preview.review, preview.changes));
  const verb = prepared.installed ? 'Update' : 'Install';
  if (!options.yes && !(await confirm(`${verb} it? [y/N] `))) {
    throw new Error(
      `Nothing was installed. Run again with --yes to ${verb.toLowerCase()} it (or answer y when asked, in a terminal).`,
    );
  }
  const taken = (await app.mcp.listSecrets()).map((secret) => secret.name);
  const written = await commitInstall(app.mcp, prepared, values, secretStoreSink(app.mcp.secrets, taken));
  const errors = written.problems.filter((problem) => problem.severity === 'error');
  if (!written.saved)
    throw new Error(`Not written: ${errors.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`);
  const settingsPath = (await app.mcp.readSettings()).path;
  output.out(
    prepared.installed
      ? `Updated "${prepared.entryName}" to ${found.name} ${found.version} in ${settingsPath}.`
      : `Installed ${found.name} ${found.version} as "${prepared.entryName}" in ${settingsPath}.`,
  );
}

function registryClient(app: App, options: RegistryFlags): RegistryClient {
  return new RegistryClient(options.registry ?? new RegistrySetting(app.store).url());
}

function printResults(output: Output, results: RegistrySearchResult[], text: string, registry: string): void {
  if (results.length === 0) return output.out(`No servers matching "${text}" in ${registry}.`);
  output.out(
    formatTable(
      ['NAME', 'VERSION', 'RUNS', 'SECRETS', 'INSTALLED', 'DESCRIPTION'],
      results.map((result) => [
        result.name,
        result.version,
        result.runs.join(', ') || '-',
        result.needsSecrets ? 'needs secrets' : '-',
        !result.installed
          ? '-'
          : result.installed.updateAvailable
            ? `${result.installed.version}, update available`
            : result.installed.version,
        shorten(result.description, 80),
      ]),
    ),
  );
}

/** The flags' values, each checked against what the server declares (a typo would otherwise be dropped quietly). */
function givenValues(prepared: PreparedInstall, options: InstallFlags): Record<string, string> {
  const values: Record<string, string> = {};
  for (const kind of ['env', 'arg', 'header'] as const) {
    const declared = prepared.inputs.filter((input) => input.kind === kind).map((input) => input.key);
    for (const [key, value] of Object.entries(options[kind])) {
      if (!declared.includes(key)) {
        const known = declared.length > 0 ? `it declares: ${declared.join(', ')}` : `it declares none`;
        throw new InvalidArgumentError(`--${kind} ${key}: ${prepared.found.server.name} has no such value (${known}).`);
      }
      values[key] = value;
    }
  }
  return values;
}

/** In a terminal: each declared value not given yet (and not kept from the installed entry), default shown. */
async function askForValues(prepared: PreparedInstall, values: Record<string, string>): Promise<void> {
  for (const input of prepared.inputs) {
    if (values[input.key] !== undefined || prepared.installed?.values[input.key] !== undefined) continue;
    const question = promptFor(input);
    const answer = input.secret ? await readSecretFromStdin(question) : await ask(question);
    if (answer.trim() !== '') values[input.key] = answer.trim();
  }
}

function promptFor(input: InstallInput): string {
  const details = [
    input.required ? 'required' : 'optional',
    input.secret ? 'secret, not shown' : undefined,
    input.choices ? `one of ${input.choices.join(', ')}` : undefined,
    input.default !== undefined ? `default ${input.default}` : undefined,
  ].filter(Boolean);
  const about = input.description ? ` — ${input.description}` : '';
  return `${input.key}${about} (${details.join('; ')}): `;
}

function describeInstall(prepared: PreparedInstall, review: EntryReview, changes: string[]): string {
  const found = prepared.found.server;
  const lines = prepared.installed
    ? [`Update "${prepared.entryName}" (${found.name}):`, ...changes.map((change) => `  ${change}`)]
    : [`${found.name} ${found.version} will be added as "${prepared.entryName}".`];
  lines.push(
    prepared.runsWith === 'remote'
      ? 'It connects to:'
      : 'It will run on this machine, as you, when Switchyard starts it:',
    `  ${review.runs}`,
  );
  if (review.envNames.length > 0) lines.push(`  with ${review.envNames.join(', ')} set`);
  for (const warning of review.warnings) lines.push(`  warning: ${warning}`);
  return lines.join('\n');
}

/** `io.github.user/weather@1.2.0` → name and version (registry names have no "@"). */
function splitVersion(value: string): [string, string | undefined] {
  const at = value.indexOf('@');
  if (at < 0) return [value, undefined];
  return [value.slice(0, at), value.slice(at + 1) || undefined];
}

/** A repeatable `--flag NAME=VALUE`, gathered into an object. */
function collectPair(flag: string) {
  return (pair: string, previous: Record<string, string>): Record<string, string> => {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new InvalidArgumentError(`expected NAME=VALUE, as in ${flag} API_KEY=…`);
    return { ...previous, [pair.slice(0, equals)]: pair.slice(equals + 1) };
  };
}

function shorten(text: string, length: number): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}
