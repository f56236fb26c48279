// Our validated ChatRequest → the body of :generateContent / :streamGenerateContent. Gemini's temperature range is
// 0–2 like ours, so it travels as is. parallel_tool_calls has no Gemini equivalent and is ignored.
// `web_search_options` (OpenAI's request for a web search) grounds the answer in Google Search where the model can
// (../web-search.ts); its location has no Gemini equivalent.

import type { ChatRequest, ReasoningEffort } from '../../../shared/api/index.js';
import { offeredTools, plainToolChoice, type PlainToolChoice } from '../common/index.js';
import type { ModelCapabilities } from '../model-capabilities.js';
import { requireSupportedParameters } from '../parameter-support.js';
import { geminiSearchesWeb } from '../web-search.js';
import type {
  GeminiFunctionDeclaration,
  GeminiGenerationConfig,
  GeminiRequestBody,
  GeminiThinkingConfig,
} from './gemini-api.js';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';
import { convertToGeminiParameters, convertToGeminiSchema } from './convert-to-gemini-schema.js';

export interface GeminiRequestOptions {
  /** The model name upstream (after `<provider>/`). */
  model: string;
  /** `<provider>/<model>`, for error messages. */
  modelLabel: string;
  /** The provider's id, for error messages. */
  providerId: string;
  capabilities: ModelCapabilities;
}

/** Thinking budgets by effort; without effort or max_tokens the model decides (-1, "dynamic"); `none` is off. */
const effortBudgets: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
};

/** `reasoning` → thinkingConfig. No `reasoning`: the model's default (2.5 models think, but show no thoughts). */
export function planGeminiThinking(
  reasoning: ChatRequest['reasoning'],
  modelCanThink: boolean,
): GeminiThinkingConfig | undefined {
  if (reasoning === undefined || !modelCanThink) return undefined;
  if (reasoning.enabled === false || reasoning.effort === 'none') return { thinkingBudget: 0 };
  const budget = reasoning.max_tokens ?? (reasoning.effort ? effortBudgets[reasoning.effort] : -1);
  return { thinkingBudget: budget, includeThoughts: reasoning.exclude !== true };
}

function toolConfigOf(choice: PlainToolChoice | undefined): GeminiRequestBody['toolConfig'] {
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
}

function generationConfigOf(request: ChatRequest, thinking: GeminiThinkingConfig | undefined): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.top_p !== undefined) config.topP = request.top_p;
  if (request.top_k !== undefined) config.topK = request.top_k;
  if (request.n !== undefined && request.n > 1) config.candidateCount = request.n;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (request.stop !== undefined) {
    const stops = (typeof request.stop === 'string' ? [request.stop] : request.stop).filter((stop) => stop !== '');
    if (stops.length > 0) config.stopSequences = stops;
  }
  if (request.seed !== undefined) config.seed = request.seed;
  if (request.presence_penalty !== undefined) config.presencePenalty = request.presence_penalty;
  if (request.frequency_penalty !== undefined) config.frequencyPenalty = request.frequency_penalty;
  const format = request.response_format;
  if (format?.type === 'json_object' || format?.type === 'json_schema') config.responseMimeType = 'application/json';
  const jsonSchema = (format?.json_schema as { schema?: unknown } | undefined)?.schema;
  if (format?.type === 'json_schema' && jsonSchema !== null && typeof jsonSchema === 'object') {
    config.responseSchema = convertToGeminiSchema(jsonSchema as Record<string, unknown>);
  }
  if (thinking) config.thinkingConfig = thinking;
  if (request.logprobs === true) {
    config.responseLogprobs = true;
    if (request.top_logprobs !== undefined && request.top_logprobs > 0) config.logprobs = request.top_logprobs;
  }
  return config;
}

export function buildGeminiRequest(request: ChatRequest, options: GeminiRequestOptions): GeminiRequestBody {
  requireSupportedParameters(request, 'google', options.providerId);
  const prompt = convertToGeminiContents(request.messages, {
    acceptsImages: options.capabilities.images,
    modelLabel: options.modelLabel,
  });
  const body: GeminiRequestBody = { contents: prompt.contents };
  if (prompt.systemInstruction) body.systemInstruction = prompt.systemInstruction;
  const tools = offeredTools(request);
  if (tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: tools.map((tool) => {
          const declaration: GeminiFunctionDeclaration = {
            name: tool.function.name,
          };
          if (tool.function.description) declaration.description = tool.function.description;
          const parameters = convertToGeminiParameters(tool.function.parameters);
          if (parameters) declaration.parameters = parameters;
          return declaration;
        }),
      },
    ];
    const toolConfig = toolConfigOf(plainToolChoice(request.tool_choice));
    if (toolConfig) body.toolConfig = toolConfig;
  }
  if (request.web_search_options && geminiSearchesWeb(options.model, request)) {
    body.tools = [...(body.tools ?? []), { googleSearch: {} }];
  }
  const generationConfig = generationConfigOf(
    request,
    planGeminiThinking(request.reasoning, options.capabilities.thinking),
  );
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}
