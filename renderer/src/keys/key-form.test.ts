// The key dialog's fields to and from a key's rules.

import { describe, expect, it } from 'vitest';
import type { ApiKeyDetails } from '../../../shared/api/index.js';
import { rulesProblem, toKeyForm, toKeyRules } from './key-form.js';
import { editorPluginKey } from './test-keys.js';

const known = new Set(['fake/echo-1', 'fake/echo-2']);

const existing: ApiKeyDetails = {
  ...editorPluginKey,
  allowed_providers: ['ollama'],
  expires_at: '2026-03-01T12:30:00.000Z',
  disabled: true,
  tokens_per_minute: 1000,
};

describe('toKeyForm', () => {
  it('starts a new key with no limit, every model, no management right, no metrics, no MCP hub, never expiring', () => {
    expect(toKeyForm(undefined, known)).toEqual({
      name: '',
      limit: '',
      limitReset: 'never',
      restricted: false,
      chosen: new Set(),
      patterns: '',
      providers: '',
      management: false,
      metrics: false,
      expires: '',
      rpm: '',
      tpm: '',
      disabled: false,
      mcp: '',
    });
  });

  it('shows an existing key’s listed models as ticked and the rest as patterns', () => {
    const form = toKeyForm(existing, known);
    expect(form).toMatchObject({ restricted: true, patterns: 'openai/*', providers: 'ollama', management: true });
    expect([...form.chosen]).toEqual(['fake/echo-2']);
  });
});

describe('toKeyRules', () => {
  it('gives back an existing key’s rules unchanged', () => {
    const { id: _id, name: _name, label: _label, created_at: _created, last_used_at: _used, ...rules } = existing;
    expect(toKeyRules(toKeyForm(existing, known), true)).toEqual(rules);
  });

  it('sends the MCP hub servers as a list, and no access when the field is empty', () => {
    const form = toKeyForm(existing, known);
    expect(form.mcp).toBe('filesystem, everything__echo');
    expect(toKeyRules({ ...form, mcp: ' * ' }, true).allowed_mcp).toEqual(['*']);
    expect(toKeyRules({ ...form, mcp: ' , ' }, true).allowed_mcp).toBeNull();
  });

  it('leaves disabled out for a new key, and sends no model list for "All models"', () => {
    const form = { ...toKeyForm(existing, known), restricted: false };
    const rules = toKeyRules(form, false);
    expect(rules).not.toHaveProperty('disabled');
    expect(rules).toMatchObject({ allowed_models: null, allowed_providers: null });
  });

  it('refuses "Only these" with nothing chosen, which would otherwise allow every model', () => {
    const form = { ...toKeyForm(undefined, known), restricted: true };
    expect(rulesProblem(form, toKeyRules(form, false))).toBe(
      'Choose at least one model or provider, or allow all models.',
    );
    const chosen = { ...form, patterns: 'openai/*' };
    expect(rulesProblem(chosen, toKeyRules(chosen, false))).toBeNull();
  });
});
