// `switchyard usage`: what requests cost, grouped by UTC day, model, app or key, as a table, CSV or JSON; with
// --rows, the requests themselves. Nothing here is secret: rows hold key ids, never key secrets.

import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  formatCost,
  formatMoney,
  totalOfUsage,
  usageGroupings,
  type UsageGrouping,
  type UsageRecord,
  type UsageSummaryRow,
} from '../../shared/api/index.js';
import { usageRowsCsv, usageSummaryCsv } from '../accounts/index.js';
import { formatJson, formatTable, printList } from './output.js';
import { withApp, type CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';

interface UsageOptions {
  since: string;
  until?: string;
  by: UsageGrouping;
  rows?: boolean;
  limit?: number;
  csv?: boolean;
  json?: boolean;
  dataDir?: string;
}

const units: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d`, `12h`, `2w`, `90m` (that long ago), `2026-01-01` (00:00 UTC), an ISO date-time, or `all`. */
export function parseWhen(value: string, now = Date.now()): number | undefined {
  if (value === 'all') return undefined;
  const relative = /^(\d+)([mhdw])$/.exec(value);
  if (relative) return now - Number(relative[1]) * units[relative[2]!]!;
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return ms;
  }
  throw new InvalidArgumentError('expected 30d, 12h, 2w, 90m, a date such as 2026-01-01, an ISO date-time, or all');
}

/** The summary table's columns after the group's: each header with its cell. */
const summaryColumns: [header: string, cell: (row: UsageSummaryRow) => string][] = [
  ['REQUESTS', (row) => String(row.requests)],
  ['ERRORS', (row) => String(row.errors)],
  ['CANCELLED', (row) => String(row.cancelled)],
  ['PROMPT', (row) => String(row.prompt_tokens)],
  ['COMPLETION', (row) => String(row.completion_tokens)],
  ['CACHED', (row) => String(row.cached_tokens)],
  ['REASONING', (row) => String(row.reasoning_tokens)],
  ['COST', (row) => formatCost(row.cost, row)],
  ['UNPRICED', (row) => String(row.unpriced_requests)],
];

function printSummary(context: CommandContext, by: UsageGrouping, rows: UsageSummaryRow[], options: UsageOptions) {
  const { output } = context;
  if (options.json) return output.out(formatJson(rows));
  if (options.csv) return output.out(usageSummaryCsv(by, rows));
  if (rows.length === 0) return output.out('No usage in this period.');
  const total = totalOfUsage(rows);
  const name = (row: UsageSummaryRow) => (by === 'key' && row !== total ? `${row.label} (${row.group})` : row.label);
  output.out(
    formatTable(
      [by.toUpperCase(), ...summaryColumns.map(([header]) => header)],
      [...rows, total].map((row) => [name(row) || '(none)', ...summaryColumns.map(([, cell]) => cell(row))]),
    ),
  );
}

function printRows(context: CommandContext, rows: UsageRecord[], options: UsageOptions) {
  if (options.csv) return context.output.out(usageRowsCsv(rows));
  printList(context.output, rows, options.json, {
    empty: 'No usage in this period.',
    headers: ['TIME', 'KEY', 'APP', 'MODEL', 'STATUS', 'FINISH', 'PROMPT', 'COMPLETION', 'COST', 'LATENCY MS', 'CACHE'],
    row: (row) => [
      new Date(row.created_at).toISOString(),
      row.key_id,
      row.app_title ?? row.app_referer ?? '',
      row.model,
      String(row.status),
      row.finish_reason ?? '',
      String(row.prompt_tokens),
      String(row.completion_tokens),
      row.cost === null ? '' : formatCost(row.cost, row.unpriced),
      String(row.latency_ms),
      row.saved_cost === undefined ? (row.cache ?? '') : `${row.cache} (saved ${formatMoney(row.saved_cost)})`,
    ],
  });
}

export function registerUsageCommand(program: Command, context: CommandContext): void {
  program
    .command('usage')
    .description('what requests cost, grouped by day (UTC), model, app or key; --rows lists the requests')
    .option(
      '--since <when>',
      'from: 30d, 12h, 2w, 90m, a date (UTC) such as 2026-01-01, an ISO date-time, or all',
      '30d',
    )
    .option('--until <when>', 'up to (not including), in the same forms')
    .addOption(new Option('--by <grouping>', 'group by').choices(usageGroupings).default('day'))
    .option('--rows', 'list the requests themselves, newest first, instead of a summary')
    .option('--limit <n>', 'with --rows: at most this many', (value) => {
      if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
      return Number(value);
    })
    .option('--csv', 'print CSV (with a header row)')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: UsageOptions) => {
      if (options.csv && options.json) throw new Error('Use either --csv or --json.');
      const since = parseWhen(options.since);
      const until = options.until === undefined ? undefined : parseWhen(options.until);
      await withApp(context, options, async (app) => {
        if (options.rows)
          return printRows(context, await app.accounts.usageRows({ since, until, limit: options.limit }), options);
        printSummary(context, options.by, await app.accounts.usageSummary({ by: options.by, since, until }), options);
      });
    });
}
