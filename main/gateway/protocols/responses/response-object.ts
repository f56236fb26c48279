// The Responses API's answer: OpenAI's Response object and its output items, built from a chat completion (a whole
// answer) or piece by piece (responses-stream-encoder.ts). Reasoning comes first as a reasoning item (its text as
// the summary when one was asked, its details in encrypted_content when `include` asked), then a web_search_call
// per search the provider ran, then the message, then a function_call or custom_tool_call per tool call, named as
// the caller declared the tool (responses-tools.ts).

import type {
  ChatCompletion,
  FinishReason,
  ReasoningDetail,
  Usage,
  WebSearchCall,
} from '../../../../shared/api/index.js';
import { encodeReasoningDetails } from './reasoning-carrier.js';
import type { ResponsesTranslation } from './responses-request.js';
import type { ToolNaming } from './responses-tools.js';

export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  encrypted_content?: string | null;
  status?: 'completed' | 'in_progress';
}

export type MessagePart =
  | { type: 'output_text'; text: string; annotations: unknown[]; logprobs: unknown[] }
  | { type: 'refusal'; refusal: string };

export interface MessageItem {
  type: 'message';
  id: string;
  role: 'assistant';
  status: 'completed' | 'in_progress' | 'incomplete';
  content: MessagePart[];
}

export interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  namespace?: string;
  arguments: string;
  status: 'completed' | 'in_progress';
}

export interface CustomToolCallItem {
  type: 'custom_tool_call';
  id: string;
  call_id: string;
  name: string;
  namespace?: string;
  input: string;
  status?: 'completed' | 'in_progress';
}

export interface WebSearchCallItem {
  type: 'web_search_call';
  id: string;
  status: 'in_progress' | 'completed' | 'failed';
  action: { type: 'search'; query: string; queries: string[]; sources?: { type: 'url'; url: string }[] };
}

export type OutputItem = ReasoningItem | MessageItem | FunctionCallItem | CustomToolCallItem | WebSearchCallItem;

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
  /** USD, Switchyard's addition (as OpenRouter adds it to chat completions). */
  cost?: number;
}

export type ResponseStatus = 'completed' | 'incomplete' | 'failed' | 'in_progress';

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  model: string;
  output: OutputItem[];
  usage: ResponsesUsage | null;
  [echoed: string]: unknown;
}

/** The ids of one response and its items (`resp_…`, `msg_…`, `rs_…`, `fc_…`, `ctc_…`, `ws_…`). */
export class ResponseIds {
  readonly response: string;
  private counter = 0;

  constructor(generationId: string) {
    this.response = `resp_${generationId.replace(/^gen-/, '').replace(/[^A-Za-z0-9]/g, '')}`;
  }

  item(prefix: 'msg' | 'rs' | 'fc' | 'ctc' | 'ws'): string {
    return `${prefix}_${this.response.slice('resp_'.length)}${(this.counter++).toString(36)}`;
  }
}

export function responsesUsageOf(usage: Usage): ResponsesUsage {
  const converted: ResponsesUsage = {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage.total_tokens,
  };
  if (usage.cost !== undefined) converted.cost = usage.cost;
  return converted;
}

/** The status a finish reason gives the response, with the reason it is incomplete. */
export function statusOf(finishReason: FinishReason | null): Pick<ResponseObject, 'status' | 'incomplete_details'> {
  if (finishReason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter') {
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  }
  return { status: 'completed', incomplete_details: null };
}

/** The response before its output: what the request set, echoed as OpenAI echoes it. */
export function responseShell(
  translation: ResponsesTranslation,
  identity: { id: string; createdAt: number; model: string },
): ResponseObject {
  const { request } = translation;
  return {
    id: identity.id,
    object: 'response',
    created_at: identity.createdAt,
    status: 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    metadata: request.metadata ?? {},
    model: identity.model,
    output: [],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    safety_identifier: request.safety_identifier ?? null,
    store: request.store ?? false,
    temperature: request.temperature ?? null,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? null,
    truncation: 'disabled',
    usage: null,
    user: request.user ?? null,
  };
}

/** A tool call of the model as the item the caller's tool declaration calls for. */
export function toolCallItem(
  call: { id: string; name: string; arguments: string },
  naming: ToolNaming,
  ids: ResponseIds,
): FunctionCallItem | CustomToolCallItem {
  const declared = naming.namespaced.get(call.name);
  const named = declared ? { name: declared.name, namespace: declared.namespace } : { name: call.name };
  if (naming.custom.has(call.name)) {
    return { type: 'custom_tool_call', id: ids.item('ctc'), call_id: call.id, ...named, input: freeformInput(call) };
  }
  return {
    type: 'function_call',
    id: ids.item('fc'),
    call_id: call.id,
    ...named,
    arguments: call.arguments,
    status: 'completed',
  };
}

/** The `input` argument of a freeform tool offered as a function; the raw arguments if the model wrote no JSON. */
export function freeformInput(call: { arguments: string }): string {
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    if (parsed !== null && typeof parsed === 'object' && typeof (parsed as { input?: unknown }).input === 'string') {
      return (parsed as { input: string }).input;
    }
  } catch {
    // not JSON: the model wrote the input itself
  }
  return call.arguments;
}

/** A reasoning item of what the model reasoned, as much as the request asked to see. */
export function reasoningItem(
  id: string,
  reasoning: { text: string; details: readonly ReasoningDetail[] },
  translation: Pick<ResponsesTranslation, 'summarizeReasoning' | 'includeEncryptedReasoning'>,
): ReasoningItem {
  const item: ReasoningItem = {
    type: 'reasoning',
    id,
    summary: translation.summarizeReasoning && reasoning.text ? [{ type: 'summary_text', text: reasoning.text }] : [],
  };
  if (translation.includeEncryptedReasoning) {
    item.encrypted_content = reasoning.details.length > 0 ? encodeReasoningDetails(reasoning.details) : null;
  }
  return item;
}

/** A search the provider ran, as OpenAI's web_search_call; the pages it found only when `include` asked for them. */
export function webSearchCallItem(
  id: string,
  search: WebSearchCall,
  translation: Pick<ResponsesTranslation, 'includeSearchSources'>,
): WebSearchCallItem {
  // `query` is deprecated in favour of `queries`, and still what older clients read.
  const action: WebSearchCallItem['action'] = {
    type: 'search',
    query: search.queries.join(' | '),
    queries: search.queries,
  };
  if (translation.includeSearchSources) action.sources = search.sources.map(({ url }) => ({ type: 'url', url }));
  return { type: 'web_search_call', id, status: search.failed ? 'failed' : 'completed', action };
}

/** Chat's `url_citation` annotations ({url_citation: {…}}) in the Responses API's flat shape. */
export function annotationsOf(annotations: readonly unknown[] | undefined): unknown[] {
  return (annotations ?? []).map((annotation) => {
    const citation = (annotation as { type?: string; url_citation?: Record<string, unknown> }).url_citation;
    if ((annotation as { type?: string }).type !== 'url_citation' || !citation) return annotation;
    const { url, title, start_index, end_index } = citation;
    return { type: 'url_citation', url, title: title ?? '', start_index, end_index };
  });
}

/** A whole chat completion as a Response. */
export function responseOf(
  completion: ChatCompletion,
  translation: ResponsesTranslation,
  identity: { ids: ResponseIds; createdAt: number },
): ResponseObject {
  const { ids } = identity;
  const choice = completion.choices[0];
  const message = choice?.message;
  const output: OutputItem[] = [];
  const details = message?.reasoning_details ?? [];
  if (message?.reasoning || (details.length > 0 && translation.includeEncryptedReasoning)) {
    output.push(reasoningItem(ids.item('rs'), { text: message?.reasoning ?? '', details }, translation));
  }
  for (const search of message?.web_search_calls ?? []) {
    output.push(webSearchCallItem(ids.item('ws'), search, translation));
  }
  const parts: MessagePart[] = [];
  if (message?.content) {
    const annotations = annotationsOf(message.annotations);
    parts.push({ type: 'output_text', text: message.content, annotations, logprobs: [] });
  }
  if (message?.refusal) parts.push({ type: 'refusal', refusal: message.refusal });
  const { status, incomplete_details } = statusOf(choice?.finish_reason ?? null);
  if (parts.length > 0) {
    const itemStatus = status === 'incomplete' ? 'incomplete' : 'completed';
    output.push({ type: 'message', id: ids.item('msg'), role: 'assistant', status: itemStatus, content: parts });
  }
  for (const call of message?.tool_calls ?? []) {
    output.push(toolCallItem({ id: call.id, ...call.function }, translation.naming, ids));
  }
  return {
    ...responseShell(translation, { id: ids.response, createdAt: identity.createdAt, model: completion.model }),
    status,
    incomplete_details,
    output,
    usage: responsesUsageOf(completion.usage),
  };
}
