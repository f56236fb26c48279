// The chat's presets as both engines' rows hold them, and where a conversation is listed (pinned, in a folder).

import type { ChatPreset, ChatReasoningEffort } from '../../../shared/bridge/types.js';
import { stopList, stopText } from './conversation-columns.js';

/** A preset as its row holds it (both engines). */
export interface PresetColumns {
  id: string;
  name: string;
  model: string | null;
  system_prompt: string;
  temperature: number | null;
  max_tokens: number | null;
  top_p: number | null;
  seed: number | null;
  stop: string | null;
  reasoning_effort: string | null;
  is_default: number | boolean;
  created_at: number;
  updated_at: number;
}

export const presetFields: (keyof PresetColumns)[] = [
  'id',
  'name',
  'model',
  'system_prompt',
  'temperature',
  'max_tokens',
  'top_p',
  'seed',
  'stop',
  'reasoning_effort',
  'is_default',
  'created_at',
  'updated_at',
];

export interface ConversationPlace {
  pinned?: boolean;
  folderId?: string | null;
}

export function toPresetColumns(preset: ChatPreset): PresetColumns {
  return {
    id: preset.id,
    name: preset.name,
    model: preset.model,
    system_prompt: preset.systemPrompt,
    temperature: preset.temperature,
    max_tokens: preset.maxTokens,
    top_p: preset.topP,
    seed: preset.seed,
    stop: stopText(preset.stop),
    reasoning_effort: preset.reasoningEffort,
    is_default: preset.isDefault,
    created_at: preset.createdAt,
    updated_at: preset.updatedAt,
  };
}

export function toPreset(columns: PresetColumns): ChatPreset {
  const effort = columns.reasoning_effort;
  return {
    id: columns.id,
    name: columns.name,
    model: columns.model,
    systemPrompt: columns.system_prompt,
    temperature: columns.temperature,
    maxTokens: columns.max_tokens,
    topP: columns.top_p,
    seed: columns.seed,
    stop: stopList(columns.stop),
    reasoningEffort:
      effort === 'low' || effort === 'medium' || effort === 'high' ? (effort as ChatReasoningEffort) : null,
    isDefault: Boolean(columns.is_default),
    createdAt: columns.created_at,
    updatedAt: columns.updated_at,
  };
}
