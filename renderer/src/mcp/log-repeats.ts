// A crash-looping server writes the same few lines again and again (its error, our "exited", our "restarting"),
// and a stuck one the same complaint every second: shown as they come they push everything else out of view. Runs
// of a repeated line, or of a repeated block of up to `maxBlockLines` lines, are shown once with how many times
// they came again. Lines count as the same when they differ only in their numbers (a timestamp, "restart 3 of 5"),
// which is what makes a loop's rounds look different.

import type { McpLogLine } from '../../../shared/bridge/types.js';

export const maxBlockLines = 12;

export type LogRow =
  | { kind: 'line'; line: McpLogLine }
  /** The `lines` rows above came `times` more times. */
  | { kind: 'repeat'; lines: number; times: number };

export function collapseRepeats(lines: readonly McpLogLine[]): LogRow[] {
  const keys = lines.map((line) => `${line.source}\u0000${line.text.replace(/\d+/g, '0')}`);
  const rows: LogRow[] = [];
  // Only lines shown as themselves since the last collapsed run may form the block that repeats.
  let shownFrom = 0;
  let index = 0;
  while (index < lines.length) {
    const repeat = repeatAt(keys, index, shownFrom);
    if (repeat) {
      rows.push({ kind: 'repeat', lines: repeat.lines, times: repeat.times });
      index += repeat.lines * repeat.times;
      shownFrom = index;
    } else {
      rows.push({ kind: 'line', line: lines[index]! });
      index += 1;
    }
  }
  return rows;
}

/** How often the block of `size` lines just before `start` comes again from `start` on, for the smallest size. */
function repeatAt(keys: readonly string[], start: number, shownFrom: number) {
  for (let size = 1; size <= maxBlockLines && start - size >= shownFrom; size += 1) {
    let times = 0;
    while (sameBlock(keys, start - size, start + times * size, size)) times += 1;
    if (times > 0) return { lines: size, times };
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
