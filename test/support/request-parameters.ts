// Every chat parameter OpenAI and OpenRouter define beyond the interface specification, with a plausible value:
// what "no silent drops" is checked with, in the body builder's unit test and through the gateway.

export const openAIParameters = {
  n: 1,
  logprobs: true,
  top_logprobs: 2,
  logit_bias: { '50256': -100 },
  metadata: { run: 'nightly' },
  store: false,
  service_tier: 'flex',
  verbosity: 'low',
  modalities: ['text'],
  audio: { voice: 'alloy', format: 'wav' },
  prediction: { type: 'content', content: 'hello' },
  web_search_options: { search_context_size: 'low' },
  prompt_cache_key: 'conversation-1',
  safety_identifier: 'user-1',
} as const;

export const openRouterParameters = {
  top_k: 40,
  min_p: 0.05,
  repetition_penalty: 1.1,
  top_a: 0.2,
  chat_template_kwargs: { enable_thinking: false },
} as const;
