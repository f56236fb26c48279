import { describe, expect, it } from 'vitest';
import type { Conversation, ModelOption } from '../../shared/bridge/types.js';
import { requestSettings, settingsOf } from './chat-settings.js';

const conversation: Conversation = {
  id: 'c',
  title: 'C',
  model: 'p/m',
  ...settingsOf({}),
  createdAt: 0,
  updatedAt: 0,
};

const option = (reasons: boolean): ModelOption => ({
  id: 'p/m',
  name: 'm',
  provider: 'p',
  acceptsImages: false,
  reasons,
});

describe('requestSettings', () => {
  it('sends nothing for a conversation with the model’s defaults', () => {
    expect(requestSettings(conversation, undefined)).toEqual({});
    expect(requestSettings({ ...conversation, stop: undefined, maxTokens: undefined }, undefined)).toEqual({});
  });

  it('sends what is set, zeros included', () => {
    const tuned = { ...conversation, temperature: 0, maxTokens: 1, topP: 0, seed: 0, stop: ['x'] };
    expect(requestSettings(tuned, undefined)).toEqual({
      temperature: 0,
      max_tokens: 1,
      top_p: 0,
      seed: 0,
      stop: ['x'],
    });
  });

  it('sends the reasoning effort to a model that reasons or that the listing does not know, not to one that does not', () => {
    const thinking = { ...conversation, reasoningEffort: 'low' as const };
    expect(requestSettings(thinking, option(true))).toEqual({ reasoning_effort: 'low' });
    expect(requestSettings(thinking, undefined)).toEqual({ reasoning_effort: 'low' });
    expect(requestSettings(thinking, option(false))).toEqual({});
  });
});
