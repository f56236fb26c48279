import { describe, expect, it } from 'vitest';
import { parseSetting, sequenceOfTyped, typedSequence } from './conversation-settings.js';

describe('parseSetting', () => {
  const temperature = { min: 0, max: 2, integer: false, problem: '' };
  const tokens = { min: 1, integer: true, problem: '' };
  it('reads empty as the default and refuses what breaks the rule', () => {
    expect(parseSetting('  ', temperature)).toBeNull();
    expect(parseSetting('0.7', temperature)).toBe(0.7);
    expect(parseSetting('0', temperature)).toBe(0);
    expect(parseSetting('5', temperature)).toBeUndefined();
    expect(parseSetting('warm', temperature)).toBeUndefined();
    expect(parseSetting('1.5', tokens)).toBeUndefined();
    expect(parseSetting('0', tokens)).toBeUndefined();
    expect(parseSetting('4096', tokens)).toBe(4096);
  });
});

describe('a stop sequence typed on one line', () => {
  it('reads \\n as a new line and \\t as a tab, and shows them so again', () => {
    expect(sequenceOfTyped('\\n\\nUser:')).toBe('\n\nUser:');
    expect(sequenceOfTyped('a\\tb')).toBe('a\tb');
    expect(typedSequence('\n\nUser:')).toBe('\\n\\nUser:');
    expect(sequenceOfTyped(typedSequence('END\n'))).toBe('END\n');
  });
});
