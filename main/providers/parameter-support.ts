// Which request parameters each provider kind can honour, in one place (docs/parameters.md is its table, and a test
// keeps the two in step). An OpenAI-compatible upstream gets every parameter the gateway does not consume itself,
// so it decides. Anthropic and Gemini get what has an equivalent, translated by their builders; the rest is
// ignored, unless the caller sends OpenRouter's `provider.require_parameters: true`: then a parameter the kind
// cannot honour is a 400 naming it and the provider, and a fallback in `models` may answer instead.

import { ApiError, forwardedFieldsOf, type ChatRequest, type ProviderKind } from '../../shared/api/index.js';

/** The parameters anthropic- and google-kind upstreams honour (translated); any other is ignored by them. */
export const translatedParameters: Record<Exclude<ProviderKind, 'openai'>, readonly string[]> = {
  anthropic: [
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'temperature',
    'top_p',
    'top_k',
    'max_tokens',
    'max_completion_tokens',
    'stop',
    'user',
    'response_format',
    'web_search_options',
  ],
  google: [
    'tools',
    'tool_choice',
    'temperature',
    'top_p',
    'top_k',
    'n',
    'max_tokens',
    'max_completion_tokens',
    'stop',
    'seed',
    'presence_penalty',
    'frequency_penalty',
    'response_format',
    'logprobs',
    'top_logprobs',
    'web_search_options',
  ],
};

/** The parameters of `request` a provider of `kind` would ignore. */
export function ignoredParameters(request: ChatRequest, kind: ProviderKind): string[] {
  if (kind === 'openai' || !(kind in translatedParameters)) return [];
  const honoured = translatedParameters[kind as keyof typeof translatedParameters];
  return forwardedFieldsOf(request).filter((field) => !honoured.includes(field));
}

/** Throws the 400 of OpenRouter's `provider.require_parameters` when the provider would ignore a parameter. */
export function requireSupportedParameters(request: ChatRequest, kind: ProviderKind, providerId: string): void {
  if (request.provider?.require_parameters !== true) return;
  const ignored = ignoredParameters(request, kind);
  if (ignored.length === 0) return;
  const names = ignored.map((name) => `"${name}"`).join(', ');
  throw new ApiError(
    400,
    `Provider "${providerId}" (kind ${kind}) does not support the parameter${ignored.length > 1 ? 's' : ''} ${names}, ` +
      'and the request sets provider.require_parameters.',
    { provider_name: providerId, unsupported_parameters: ignored },
  );
}
