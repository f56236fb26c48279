// A crash-looping server writes the same few lines again and again (its error, our "exited", our "restarting"),
// and a stuck one the same complaint every second: shown as they come they push everything else out of view. A
// line repeated in a row, and then a block of up to `maxBlockLines` such runs repeated in a row (a crash loop's
// rounds), are shown once with how many times they came again. Lines count as the same when they differ only in
// their numbers (a timestamp, "restart 3 of 5"), which is what makes a loop's rounds look different.

import type { McpLogLine } from '../../../shared/bridge/types.js';

export const maxBlockLines = 12;

export type LogRow =
  | { kind: 'line'; line: McpLogLine }
  /** The `lines` rows above came `times` more times. */
  | { kind: 'repeat'; lines: number; times: number };

export function collapseRepeats(lines: readonly McpLogLine[]): LogRow[] {
  const runs = runsOf(lines);
  const keys = runs.map((run) => run.key);
  const rows: LogRow[] = [];
  // Only runs shown as themselves since the last collapsed block may form the block that repeats.
  let shownFrom = 0;
  let index = 0;
  while (index < runs.length) {
    const repeat = repeatAt(keys, index, shownFrom);
    if (repeat) {
      const shownLines = runs.slice(index - repeat.size, index).reduce((sum, run) => sum + rowsOf(run).length, 0);
      rows.push({ kind: 'repeat', lines: shownLines, times: repeat.times });
      index += repeat.size * repeat.times;
      shownFrom = index;
    } else {
      rows.push(...rowsOf(runs[index]!));
      index += 1;
    }
  }
  return rows;
}

interface Run {
  line: McpLogLine;
  key: string;
  count: number;
}

/** Lines that follow each other and are the same, as one run. */
function runsOf(lines: readonly McpLogLine[]): Run[] {
  const runs: Run[] = [];
  for (const line of lines) {
    const key = `${line.source}\u0000${line.text.replace(/\d+/g, '0')}`;
    const last = runs.at(-1);
    if (last?.key === key) last.count += 1;
    else runs.push({ line, key, count: 1 });
  }
  return runs;
}

function rowsOf(run: Run): LogRow[] {
  const line: LogRow = { kind: 'line', line: run.line };
  return run.count === 1 ? [line] : [line, { kind: 'repeat', lines: 1, times: run.count - 1 }];
}

/** How often the block of `size` runs just before `start` comes again from `start` on, for the smallest size. */
function repeatAt(keys: readonly string[], start: number, shownFrom: number) {
  for (let size = 1; size <= maxBlockLines && start - size >= shownFrom; size += 1) {
    let times = 0;
    while (sameBlock(keys, start - size, start + times * size, size)) times += 1;
    if (times > 0) return { size, times };
  }
  return undefined;
}

function sameBlock(keys: readonly string[], first: number, second: number, size: number): boolean {
  if (second + size > keys.length) return false;
  for (let offset = 0; offset < size; offset += 1) {
    if (keys[first + offset] !== keys[second + offset]) return false;
  }
  return true;
}

export function describeRepeat(row: { lines: number; times: number }): string {
  const times = `${row.times.toLocaleString()} ${row.times === 1 ? 'time' : 'times'}`;
  return row.lines === 1 ? `… repeated ${times}` : `… the ${row.lines} lines above repeated ${times}`;
}
