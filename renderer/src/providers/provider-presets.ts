// The providers people add most, with the API each speaks and where it answers, so that adding one is choosing it
// and pasting a key. Most speak OpenAI's API; Anthropic and Google have adapters of their own.

import type { ProviderKind } from '../../../shared/api/index.js';

export interface ProviderPreset {
  /** The id it is added under, unless the person types another. */
  id: string;
  label: string;
  kind: ProviderKind;
  baseUrl: string;
  /** A local server: no key. */
  keyless?: boolean;
  /** Where the key comes from, for the form's hint. */
  keyPage?: string;
}

export const providerPresets: readonly ProviderPreset[] = [
  {
    id: 'openai',
    label: 'OpenAI',
    kind: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    keyPage: 'platform.openai.com/api-keys',
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    kind: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    keyPage: 'console.anthropic.com',
  },
  {
    id: 'google',
    label: 'Google Gemini',
    kind: 'google',
    baseUrl: 'https://generativelanguage.googleapis.com',
    keyPage: 'aistudio.google.com/apikey',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    kind: 'openai',
    baseUrl: 'https://openrouter.ai/api/v1',
    keyPage: 'openrouter.ai/keys',
  },
  {
    id: 'groq',
    label: 'Groq',
    kind: 'openai',
    baseUrl: 'https://api.groq.com/openai/v1',
    keyPage: 'console.groq.com/keys',
  },
  {
    id: 'mistral',
    label: 'Mistral',
    kind: 'openai',
    baseUrl: 'https://api.mistral.ai/v1',
    keyPage: 'console.mistral.ai',
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    kind: 'openai',
    baseUrl: 'https://api.deepseek.com/v1',
    keyPage: 'platform.deepseek.com/api_keys',
  },
  { id: 'xai', label: 'xAI', kind: 'openai', baseUrl: 'https://api.x.ai/v1', keyPage: 'console.x.ai' },
  {
    id: 'together',
    label: 'Together',
    kind: 'openai',
    baseUrl: 'https://api.together.xyz/v1',
    keyPage: 'api.together.ai/settings/api-keys',
  },
  {
    id: 'fireworks',
    label: 'Fireworks',
    kind: 'openai',
    baseUrl: 'https://api.fireworks.ai/inference/v1',
    keyPage: 'fireworks.ai/account/api-keys',
  },
  { id: 'ollama', label: 'Ollama', kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', keyless: true },
  { id: 'lmstudio', label: 'LM Studio', kind: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', keyless: true },
];
