// Our validated ChatRequest → the body of POST /v1/messages. Parameters Anthropic has no equivalent for (seed,
// penalties, n, logprobs…) are left out, since sending them would make the API answer 400; which ones is
// ../parameter-support.ts's list, which also refuses them when the caller requires every parameter.
// `web_search_options` (OpenAI's request for a web search) offers Anthropic's own web search tool.

import type { ChatRequest, FunctionTool } from '../../../shared/api/index.js';
import { offeredTools, plainToolChoice, type PlainToolChoice } from '../common/index.js';
import type { ModelCapabilities } from '../model-capabilities.js';
import { requireSupportedParameters } from '../parameter-support.js';
import { anthropicSearchesWeb, anthropicWebSearchToolName, requestedLocationOf } from '../web-search.js';
import type {
  AnthropicMessage,
  AnthropicRequestBody,
  AnthropicTool,
  AnthropicToolChoice,
  AnthropicWebSearchTool,
} from './anthropic-api.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { mapAnthropicTemperature } from './map-anthropic-temperature.js';
import { planAnthropicThinking } from './plan-anthropic-thinking.js';

export interface AnthropicRequestOptions {
  /** The model name upstream (after `<provider>/`). */
  model: string;
  /** `<provider>/<model>`, for error messages. */
  modelLabel: string;
  /** The provider's id, for error messages. */
  providerId: string;
  capabilities: ModelCapabilities;
  stream: boolean;
}

/** With thinking on, top_p may only be between 0.95 and 1. */
const minTopPWithThinking = 0.95;

function convertTool(tool: FunctionTool): AnthropicTool {
  const converted: AnthropicTool = {
    name: tool.function.name,
    // input_schema must be an object schema; a tool without parameters takes none.
    input_schema: { type: 'object', ...(tool.function.parameters ?? { properties: {} }) },
  };
  if (tool.function.description) converted.description = tool.function.description;
  return converted;
}

function convertToolChoice(
  choice: PlainToolChoice | undefined,
  parallelToolCalls: boolean | undefined,
  thinking: boolean,
): AnthropicToolChoice | undefined {
  if (choice === 'none') return { type: 'none' };
  let converted: Exclude<AnthropicToolChoice, { type: 'none' }> | undefined;
  if (choice === 'auto') converted = { type: 'auto' };
  else if (choice === 'required') converted = { type: 'any' };
  else if (typeof choice === 'object') converted = { type: 'tool', name: choice.function.name };
  // Thinking does not allow forcing a tool: the model may still call one, it is just not made to.
  if (thinking && converted && converted.type !== 'auto') converted = { type: 'auto' };
  if (parallelToolCalls === false) converted = { ...(converted ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return converted;
}

/**
 * With thinking on, Anthropic requires the last assistant message of a tool loop to start with its thinking block.
 * When the caller did not send it back (reasoning excluded, or the history came from another model), thinking is
 * turned off for this request instead of letting the request fail.
 */
function lastToolTurnLacksThinking(messages: readonly AnthropicMessage[]): boolean {
  const lastAssistant = messages.findLast((message) => message.role === 'assistant');
  if (!lastAssistant?.content.some((block) => block.type === 'tool_use')) return false;
  const first = lastAssistant.content[0];
  return first?.type !== 'thinking' && first?.type !== 'redacted_thinking';
}

function webSearchTool(options: ChatRequest['web_search_options']): AnthropicWebSearchTool {
  const tool: AnthropicWebSearchTool = { type: 'web_search_20250305', name: anthropicWebSearchToolName };
  const location = requestedLocationOf(options);
  if (location) tool.user_location = { type: 'approximate', ...location };
  return tool;
}

/** `response_format` json_schema → Anthropic's structured output; `json_object` has no equivalent. */
function outputConfigOf(format: ChatRequest['response_format']): AnthropicRequestBody['output_config'] {
  const schema = (format?.json_schema as { schema?: unknown } | undefined)?.schema;
  if (format?.type !== 'json_schema' || schema === null || typeof schema !== 'object') return undefined;
  return { format: { type: 'json_schema', schema: schema as Record<string, unknown> } };
}

export function buildAnthropicRequest(request: ChatRequest, options: AnthropicRequestOptions): AnthropicRequestBody {
  requireSupportedParameters(request, 'anthropic', options.providerId);
  const prompt = convertToAnthropicMessages(request.messages, {
    acceptsImages: options.capabilities.images,
    modelLabel: options.modelLabel,
  });
  let plan = planAnthropicThinking(request, options.capabilities.thinking);
  if (plan.budgetTokens !== undefined && lastToolTurnLacksThinking(prompt.messages)) {
    plan = planAnthropicThinking(request, false);
  }
  const thinking = plan.budgetTokens !== undefined;

  const body: AnthropicRequestBody = { model: options.model, max_tokens: plan.maxTokens, messages: prompt.messages };
  if (prompt.system) body.system = prompt.system;
  if (thinking) body.thinking = { type: 'enabled', budget_tokens: plan.budgetTokens as number };
  const tools = offeredTools(request);
  if (tools.length > 0) {
    body.tools = tools.map(convertTool);
    const toolChoice = convertToolChoice(plainToolChoice(request.tool_choice), request.parallel_tool_calls, thinking);
    if (toolChoice) body.tool_choice = toolChoice;
  }
  if (request.web_search_options && anthropicSearchesWeb(options.model, request)) {
    body.tools = [...(body.tools ?? []), webSearchTool(request.web_search_options)];
  }
  // Thinking requires Anthropic's default temperature: the caller's is dropped rather than rejected.
  if (request.temperature !== undefined && !thinking) body.temperature = mapAnthropicTemperature(request.temperature);
  if (request.top_p !== undefined && (!thinking || request.top_p >= minTopPWithThinking)) body.top_p = request.top_p;
  // Thinking allows no top_k either.
  if (request.top_k !== undefined && !thinking) body.top_k = request.top_k;
  const outputConfig = outputConfigOf(request.response_format);
  if (outputConfig) body.output_config = outputConfig;
  if (request.stop !== undefined) {
    const stops = (typeof request.stop === 'string' ? [request.stop] : request.stop).filter((stop) => stop !== '');
    if (stops.length > 0) body.stop_sequences = stops;
  }
  if (request.user) body.metadata = { user_id: request.user };
  if (options.stream) body.stream = true;
  return body;
}
