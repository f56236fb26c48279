// `switchyard mcp install ./server.mcpb`: a bundle rather than a registry name (an existing file, or a name ending in
// .mcpb). It shows the bundle's name, version, author, whether it is signed and exactly what it runs, asks for its
// settings in a terminal (sensitive ones unechoed) or takes them as `--config KEY=VALUE`, and asks before it writes.

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { App } from '../app/index.js';
import {
  BundleError,
  checkBundleSize,
  commitBundle,
  describeMissingSettings,
  prepareBundle,
  previewBundle,
  secretStoreSink,
  serverSearchPath,
  type BundleInput,
  type BundleValues,
  type PreparedBundle,
} from '../mcp/index.js';
import type { Output } from './output.js';
import { readSecretFromStdin } from './read-secret.js';
import { ask, confirm } from './terminal-prompts.js';

export interface BundleInstallFlags {
  yes?: boolean;
  name?: string;
  config: BundleValues;
}

/** Whether the install argument names a bundle: a path to an existing file, or a name ending in .mcpb. */
export async function isBundleArgument(argument: string): Promise<boolean> {
  if (argument.toLowerCase().endsWith('.mcpb')) return true;
  return (await stat(argument).catch(() => undefined))?.isFile() === true;
}

export async function installBundle(
  app: App,
  output: Output,
  file: string,
  options: BundleInstallFlags,
): Promise<void> {
  // Read whole only when it may be a bundle at all: the size is checked before the bytes are in memory.
  checkBundleSize((await stat(file).catch(() => undefined))?.size ?? 0);
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new BundleError(
      `Cannot read the bundle ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
    );
  });
  const prepared = await prepareBundle(app.mcp, app.dataDir, bytes, {
    searchPath: await serverSearchPath(),
    ...(options.name ? { entryName: options.name } : {}),
  });
  const values = { ...options.config };
  if (process.stdin.isTTY && !options.yes) await askForSettings(prepared.inputs, values);
  const preview = previewBundle(prepared, values);
  if (preview.problems.length > 0) throw new BundleError(`Nothing was written: ${preview.problems.join(' ')}`);
  if (preview.missing.length > 0) throw new BundleError(describeMissingSettings(preview.missing));
  output.out(describeBundle(prepared, path.basename(file), preview));
  const verb = prepared.replaces ? 'Replace' : 'Install';
  if (!options.yes && !(await confirm(`${verb} it? [y/N] `))) {
    throw new BundleError(
      `Nothing was installed. Run again with --yes to install it (or answer y when asked, in a terminal).`,
    );
  }
  const taken = (await app.mcp.listSecrets()).map((secret) => secret.name);
  await commitBundle(app.mcp, app.dataDir, prepared, values, secretStoreSink(app.mcp.secrets, taken));
  const settingsPath = (await app.mcp.readSettings()).path;
  output.out(
    `Installed ${prepared.source.name} ${prepared.source.version} as "${prepared.entryName}" in ${settingsPath} ` +
      `(files in ${prepared.folder}).`,
  );
}

/** A repeatable `--config KEY=VALUE`; a key given again adds a value (for a `multiple` setting). */
export function collectConfig(pair: string, previous: BundleValues): BundleValues {
  const equals = pair.indexOf('=');
  if (equals <= 0) throw new InvalidArgumentError('expected KEY=VALUE, as in --config api_key=…');
  const key = pair.slice(0, equals);
  return { ...previous, [key]: [...(previous[key] ?? []), pair.slice(equals + 1)] };
}

/** In a terminal: each setting not given yet, default shown; a `multiple` one takes values separated by commas. */
async function askForSettings(inputs: BundleInput[], values: BundleValues): Promise<void> {
  for (const input of inputs) {
    if (values[input.key] !== undefined) continue;
    const details = [
      input.required ? 'required' : 'optional',
      input.type,
      input.multiple ? 'several, separated by commas' : undefined,
      input.sensitive ? 'secret, not shown' : undefined,
      input.default && !input.sensitive ? `default ${input.default.join(', ')}` : undefined,
    ].filter(Boolean);
    const about = input.description ? ` — ${input.description}` : '';
    const question = `${input.title}${about} (${details.join('; ')}): `;
    const answer = (input.sensitive ? await readSecretFromStdin(question) : await ask(question)).trim();
    if (answer !== '') values[input.key] = input.multiple ? answer.split(',').map((part) => part.trim()) : [answer];
  }
}

function describeBundle(prepared: PreparedBundle, file: string, preview: ReturnType<typeof previewBundle>): string {
  const title = prepared.manifest.display_name ?? prepared.manifest.name;
  const lines = [
    `${title} ${prepared.source.version} by ${prepared.author} (${file}, sha256 ${prepared.source.sha256.slice(0, 12)}…)`,
    `${preview.signature}.`,
    prepared.replaces
      ? `It replaces "${prepared.entryName}" (${prepared.replaces.name} ${prepared.replaces.version}) and its files.`
      : `It will be added as "${prepared.entryName}", unpacked into ${prepared.folder}.`,
    'It will run on this machine, as you, when Switchyard starts it:',
    `  ${preview.review.runs}`,
  ];
  if (preview.review.envNames.length > 0) lines.push(`  with ${preview.review.envNames.join(', ')} set`);
  for (const warning of preview.review.warnings) lines.push(`  warning: ${warning}`);
  return lines.join('\n');
}
