// The benchmark's results as data (bench/results/latest.json) and as the markdown table the README shows: every
// figure next to its target, whether it passed, Portkey's figure and the ratio. A missed target gets a note that
// says by how much; the reasons are in the README's Benchmark section.

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
  /** 1-minute load average before and after the run: other work on the machine makes figures noisy. */
  loadBefore: number;
  loadAfter: number;
  /** Average cores used during the run by processes that are not the benchmark's. */
  foreignCores?: number;
}

export type Comparison = 'max' | 'min' | 'info';

export interface Figure {
  id: string;
  label: string;
  unit: 'ms' | 'req/s' | 'MB' | 'MB/min' | 'rows' | '×';
  switchyard: number | null;
  portkey?: number | null;
  /** `max`: the figure must be at most `target`; `min`: at least. */
  comparison: Comparison;
  target?: number;
  /** Shown instead of the plain target (e.g. "flat (≤ 10 % of 416 MB)"). */
  targetText?: string;
}

/** One party of the run, as a row of the side-by-side table. */
export interface Contender {
  name: string;
  /** Requests per second by cell (`stream@50`, `whole@200`, …). */
  rps: Record<string, number | null>;
  /** CPU its own process (and its children) spent per request, at 200 connections. */
  cpuUsPerRequest: { whole: number | null; stream: number | null };
  /** p50 of request → last byte minus calling the upstream directly, 50 connections, interleaved rounds. */
  addedP50Ms: { whole: number | null; stream: number | null };
}

export interface BenchResults {
  date: string;
  quick: boolean;
  workers: number;
  machine: Machine;
  workload: string;
  figures: Figure[];
  contenders?: Contender[];
  /** Raw measurements behind the figures. */
  details: Record<string, unknown>;
  notes: string[];
}

export interface Verdict {
  pass: boolean | null;
  /** For a miss: by how much, in words. */
  shortfall?: string;
  /** The Result cell: pass, miss, or each condition's outcome when a figure has two. */
  summary: string;
}

function format(value: number | null | undefined, unit: Figure['unit']): string {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  if (unit === 'req/s' || unit === 'rows')
    return `${Math.round(value).toLocaleString('en-US')}${unit === 'req/s' ? ' req/s' : ''}`;
  if (unit === '×') return `${value.toFixed(2)}×`;
  const digits = Math.abs(value) < 10 ? 2 : 1;
  return `${value.toFixed(digits)} ${unit}`;
}

export function judge(figure: Figure): Verdict {
  const value = figure.switchyard;
  if (figure.comparison === 'info' || value === null || Number.isNaN(value)) return { pass: null, summary: '—' };
  const misses: string[] = [];
  const outcomes: string[] = [];
  if (figure.target !== undefined) {
    const over = figure.comparison === 'max' ? value - figure.target : figure.target - value;
    if (over > 0) {
      const percent = Math.round((over / figure.target) * 100);
      misses.push(
        `${figure.comparison === 'max' ? 'over' : 'under'} the target by ${format(over, figure.unit)} (${percent} %)`,
      );
    }
    const bound = `${figure.comparison === 'max' ? '≤' : '≥'} ${format(figure.target, figure.unit)}`;
    outcomes.push(`${over > 0 ? '**miss**' : 'pass'} (${bound})`);
  }
  const summary = outcomes.length > 1 ? outcomes.join(', ') : misses.length === 0 ? 'pass' : '**miss**';
  return misses.length === 0 ? { pass: true, summary } : { pass: false, shortfall: misses.join('; '), summary };
}

function targetText(figure: Figure): string {
  if (figure.targetText) return figure.targetText;
  if (figure.target === undefined) return '—';
  return `${figure.comparison === 'max' ? '≤' : '≥'} ${format(figure.target, figure.unit)}`;
}

function ratioText(figure: Figure): string {
  if (!figure.portkey || figure.switchyard === null) return '—';
  const ratio = figure.switchyard / figure.portkey;
  if (figure.unit === 'req/s') return `${ratio.toFixed(1)}×`;
  return `${ratio.toFixed(2)}×`;
}

export function renderMarkdown(results: BenchResults): string {
  const { machine } = results;
  const lines = [
    `Measured ${results.date}${results.quick ? ' (quick run: short phases, figures are rough)' : ''} on ` +
      `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; ` +
      `load average ${machine.loadBefore.toFixed(2)} before, ${machine.loadAfter.toFixed(2)} after` +
      (machine.foreignCores === undefined
        ? '. '
        : `; other processes used ${machine.foreignCores.toFixed(2)} cores on average during the run. `) +
      `Gateway: \`switchyard serve\` (one process)` +
      (results.workers > 1 ? `, and \`switchyard serve --workers ${results.workers}\` for the rows that say so.` : '.'),
    '',
    results.workload,
    '',
    '| Figure | Switchyard | Target | Result | Portkey | Switchyard ÷ Portkey |',
    '| --- | --: | --- | --- | --: | --: |',
  ];
  const misses: string[] = [];
  for (const figure of results.figures) {
    const verdict = judge(figure);
    const result = verdict.summary;
    lines.push(
      `| ${figure.label} | ${format(figure.switchyard, figure.unit)} | ${targetText(figure)} | ${result} | ` +
        `${figure.portkey === undefined ? '—' : format(figure.portkey, figure.unit)} | ${ratioText(figure)} |`,
    );
    if (verdict.pass === false) misses.push(`- ${figure.label}: ${verdict.shortfall}.`);
  }
  if (misses.length > 0) lines.push('', 'Missed targets:', '', ...misses);
  if (results.contenders && results.contenders.length > 0) lines.push('', ...renderContenders(results.contenders));
  if (results.notes.length > 0) lines.push('', ...results.notes.map((note) => `- ${note}`));
  return `${lines.join('\n')}\n`;
}

/** The contenders side by side: throughput per cell, CPU per request, added latency. */
function renderContenders(contenders: Contender[]): string[] {
  const cells = ['whole@50', 'whole@200', 'stream@50', 'stream@200'];
  const microseconds = (value: number | null) => (value === null ? '—' : `${Math.round(value)} µs`);
  const lines = [
    'Side by side, one run (the same workload, CPU per request at 200 connections):',
    '',
    '| Contender | Whole req/s (50) | Whole req/s (200) | Streamed req/s (50) | Streamed req/s (200) | CPU per whole request | CPU per streamed request | Added p50 whole | Added p50 streamed |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: |',
  ];
  for (const contender of contenders) {
    const row = [
      contender.name,
      ...cells.map((cell) => format(contender.rps[cell], 'req/s')),
      microseconds(contender.cpuUsPerRequest.whole),
      microseconds(contender.cpuUsPerRequest.stream),
      contender.addedP50Ms.whole === null ? '—' : format(contender.addedP50Ms.whole, 'ms'),
      contender.addedP50Ms.stream === null ? '—' : format(contender.addedP50Ms.stream, 'ms'),
    ];
    lines.push(`| ${row.join(' | ')} |`);
  }
  return lines;
}
