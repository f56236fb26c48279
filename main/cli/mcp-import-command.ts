// `switchyard mcp import FILE`: the servers of another MCP client's config file, copied into mcp_settings.json
// once the person has seen what each of them runs.

import path from 'node:path';
import type { Command } from 'commander';
import type { EntryReview } from '../../shared/mcp/review-entry.js';
import { resolveDataDir } from '../app/index.js';
import { createLogger } from '../common/index.js';
import { McpManager } from '../mcp/index.js';
import { formatJson, type Output } from './output.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';
import { confirm } from './terminal-prompts.js';

export function registerMcpImportCommand(mcp: Command, output: Output): void {
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
