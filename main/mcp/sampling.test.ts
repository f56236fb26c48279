// The `sampling` field of a server's entry as main reads it, and how a server's model hints pick a model.

import { describe, expect, it } from 'vitest';
import { chooseSamplingModel } from './sampling.js';
import { parseEntry } from './settings-schema.js';

describe('the sampling settings of an entry', () => {
  it('reads a model and an approval, "ask" when none is given', () => {
    expect(parseEntry('fs', { command: 'npx', sampling: { model: 'openai/gpt-5-mini' } }).config?.sampling).toEqual({
      model: 'openai/gpt-5-mini',
      approval: 'ask',
    });
    expect(parseEntry('fs', { command: 'npx' }).config).not.toHaveProperty('sampling');
  });

  it('refuses an unknown approval or an empty model, at the exact path', () => {
    const parsed = parseEntry('fs', { command: 'npx', sampling: { model: '', approval: 'sometimes' } });
    expect(parsed.config).toBeUndefined();
    expect(parsed.problems.map(({ path, message }) => `${path}: ${message}`)).toEqual([
      'mcpServers.fs.sampling.model: must not be empty',
      'mcpServers.fs.sampling.approval: expected one of ask, always, never; got "sometimes"',
    ]);
  });
});

describe('chooseSamplingModel', () => {
  const available = ['openai/gpt-5-mini', 'anthropic/claude-sonnet-4-5', 'anthropic/claude-haiku-4-5'];

  it('takes the first hint, in the server’s order, that names a configured model', () => {
    const hints = [{ name: 'gemini' }, { name: 'Sonnet' }, { name: 'haiku' }];
    expect(chooseSamplingModel(hints, 'openai/gpt-5-mini', available)).toBe('anthropic/claude-sonnet-4-5');
  });

  it('keeps the chosen model when no hint matches, or there are none', () => {
    expect(chooseSamplingModel([{ name: 'llama' }], 'openai/gpt-5-mini', available)).toBe('openai/gpt-5-mini');
    expect(chooseSamplingModel([], 'openai/gpt-5-mini', available)).toBe('openai/gpt-5-mini');
  });
});
