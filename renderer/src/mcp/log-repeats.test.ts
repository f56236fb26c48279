import { describe, expect, it } from 'vitest';
import type { McpLogLine } from '../../../shared/bridge/types.js';
import { collapseRepeats, describeRepeat } from './log-repeats.js';

const stderr = (text: string): McpLogLine => ({ source: 'stderr', text });
const note = (text: string): McpLogLine => ({ source: 'switchyard', text });

describe('collapseRepeats', () => {
  it('shows a line written 38 times in a row once, and says how often it came again', () => {
    const lines = [
      stderr('starting'),
      ...Array.from({ length: 38 }, () => stderr('ECONNREFUSED 127.0.0.1')),
      note('x'),
    ];
    expect(collapseRepeats(lines)).toEqual([
      { kind: 'line', line: stderr('starting') },
      { kind: 'line', line: stderr('ECONNREFUSED 127.0.0.1') },
      { kind: 'repeat', lines: 1, times: 37 },
      { kind: 'line', line: note('x') },
    ]);
  });

  it('collapses the rounds of a crash loop, whose lines differ only in their numbers', () => {
    const round = (restart: number): McpLogLine[] => [
      note('Starting: node server.js'),
      stderr(`[${10 + restart}:00:01] Error: missing API_TOKEN`),
      note('Exited with code 1.'),
      note(`Restarting in ${restart} s (restart ${restart} of 5).`),
    ];
    const rows = collapseRepeats([1, 2, 3, 4, 5].flatMap(round));
    expect(rows).toEqual([...round(1).map((line) => ({ kind: 'line', line })), { kind: 'repeat', lines: 4, times: 4 }]);
    expect(describeRepeat({ lines: 4, times: 4 })).toBe('… the 4 lines above repeated 4 times');
    expect(describeRepeat({ lines: 1, times: 37 })).toBe('… repeated 37 times');
    expect(describeRepeat({ lines: 1, times: 1 })).toBe('… repeated 1 time');
  });

  it('collapses rounds that each repeat a line, counting the shown lines of a round', () => {
    const round = (restart: number): McpLogLine[] => [
      note('Starting: node server.js'),
      ...Array.from({ length: 40 }, () => stderr('Error: could not reach the database')),
      note(`Restarting in ${restart} s (restart ${restart} of 5).`),
    ];
    expect(collapseRepeats([1, 2, 3].flatMap(round))).toEqual([
      { kind: 'line', line: note('Starting: node server.js') },
      { kind: 'line', line: stderr('Error: could not reach the database') },
      { kind: 'repeat', lines: 1, times: 39 },
      { kind: 'line', line: note('Restarting in 1 s (restart 1 of 5).') },
      { kind: 'repeat', lines: 4, times: 2 },
    ]);
  });

  it('keeps lines that differ, and the same text from another source', () => {
    const lines = [stderr('a'), stderr('b'), stderr('a'), note('a'), stderr('c')];
    expect(collapseRepeats(lines)).toEqual(lines.map((line) => ({ kind: 'line', line })));
  });
});
