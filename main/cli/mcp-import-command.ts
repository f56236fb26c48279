// `switchyard mcp import FILE`: the servers of another MCP client's config file, copied into mcp_settings.json
// once the person has seen what each of them runs. The values of their secret-looking variables and headers move
// into the secret store on the way (`${secret:NAME}` in the file), unless the person keeps them (decision 037).

import path from 'node:path';
import type { Command } from 'commander';
import type { EntryReview } from '../../shared/mcp/review-entry.js';
import { resolveDataDir } from '../app/index.js';
import { createLogger } from '../common/index.js';
import { McpManager, McpSecrets, type FoundSecret } from '../mcp/index.js';
import { openSecretStore } from '../secrets/index.js';
import { formatJson, type Output } from './output.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';
import { ask, confirm } from './terminal-prompts.js';

export function registerMcpImportCommand(mcp: Command, output: Output): void {
  mcp
    .command('import')
    .description('copy the servers of a Claude Desktop, Cursor or Cline config file into mcp_settings.json')
    .argument('<file>', 'e.g. claude_desktop_config.json, ~/.cursor/mcp.json or cline_mcp_settings.json')
    .option('--overwrite', 'replace servers that have the same name but a different entry')
    .option('--yes', 'import without asking (otherwise it shows what each server runs and asks first)')
    .option('--move-secrets', 'move secret-looking env values and headers into the secret store (the default)')
    .option('--keep-secrets', 'leave secret-looking env values and headers in mcp_settings.json as they are')
    .option('--json', 'print the report as JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (file: string, options: ImportCommandOptions) => {
      if (options.moveSecrets && options.keepSecrets) {
        throw new Error('Choose one of --move-secrets and --keep-secrets.');
      }
      const dataDir = resolveDataDir(options.dataDir);
      // Opened only when there are secrets to move: the keychain probe costs a round trip.
      const secrets = new McpSecrets(async () => {
        const { store, warning } = await openSecretStore({ dataDir });
        if (warning) output.err(`warning: ${warning}`);
        return store;
      });
      // Through a manager that is never started: it writes the file and runs no server.
      const manager = new McpManager({ dataDir, logger: createLogger('error'), secrets });
      const importOptions = { overwrite: options.overwrite ?? false };
      // A server is a program that will run as you, with your files: say exactly what, before it is written
      // where a running Switchyard would start it.
      const preview = await manager.previewImportFile(path.resolve(file), importOptions);
      if (preview.reviews.length > 0 && !options.json) output.out(describeReviews(preview.reviews));
      const moveSecrets = preview.secrets.length > 0 && (await chooseToMoveSecrets(preview.secrets, options, output));
      if (preview.reviews.length > 0 && !options.yes) {
        const confirmed = await confirm(`Import ${preview.reviews.length === 1 ? 'it' : 'them'}? [y/N] `);
        if (!confirmed) {
          throw new Error(
            'Nothing was imported. Run again with --yes to import these servers (answer y when asked, in a terminal).',
          );
        }
      }
      const report = await manager.importConfigFile(path.resolve(file), { ...importOptions, moveSecrets });
      if (options.json) return output.out(formatJson(report));
      const lines = [`Imported from ${report.source} file ${file}:`];
      if (report.added.length > 0) lines.push(`  added: ${report.added.join(', ')}`);
      if (report.replaced.length > 0) lines.push(`  replaced: ${report.replaced.join(', ')}`);
      if (report.movedSecrets?.length) {
        lines.push(`  moved to ${await secrets.location()}: ${describeSecrets(report.movedSecrets)}`);
      }
      for (const skipped of report.skipped) {
        const fix = skipped.conflict ? '; rename one, or import with --overwrite to replace it' : '';
        lines.push(`  skipped ${skipped.name}: ${skipped.reason}${fix}`);
      }
      if (report.added.length + report.replaced.length + report.skipped.length === 0) lines.push('  no servers in it');
      output.out(lines.join('\n'));
    });
}

interface ImportCommandOptions {
  overwrite?: boolean;
  yes?: boolean;
  json?: boolean;
  dataDir?: string;
  moveSecrets?: boolean;
  keepSecrets?: boolean;
}

/**
 * Whether the secrets found move into the store: as the flags say; otherwise asked in a terminal (yes unless the
 * person says no), and moved without a terminal or with --yes, since the settings file must not hold them.
 */
async function chooseToMoveSecrets(found: FoundSecret[], options: ImportCommandOptions, output: Output) {
  if (options.keepSecrets) return false;
  if (!options.json) {
    output.out(`Secrets found: ${describeSecrets(found)}. They move into the secret store, the file gets references.`);
  }
  if (options.moveSecrets || options.yes || !process.stdin.isTTY) return true;
  return !/^n(o)?$/i.test((await ask('Move them into the secret store? [Y/n] ')).trim());
}

/** `fs: GITHUB_TOKEN; remote: Authorization (header)`. */
function describeSecrets(found: FoundSecret[]): string {
  return found
    .map((secret) => `${secret.server}: ${secret.key}${secret.field === 'headers' ? ' (header)' : ''}`)
    .join('; ');
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
