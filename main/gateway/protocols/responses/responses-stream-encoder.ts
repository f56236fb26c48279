// The chunks of a generation as the Responses API's stream: `event: <type>` and `data: <json>` lines with an
// increasing `sequence_number`, in OpenAI's order — response.created and response.in_progress, then per output
// item its `added`, its deltas and its `done`, then response.completed (with usage), response.incomplete (max
// tokens, content filter) or, for a failure once the stream was open, response.failed with the error.
//
// Items are open one kind at a time: reasoning, the message, or tool calls (several at once, as upstreams may
// interleave their fragments). Something of another kind closes what was open; reasoning details that arrive after
// the text (Gemini's thought signatures sit on the function calls) open a new reasoning item, and the next request
// folds all of a turn's reasoning items into one assistant message again. A freeform tool's input arrives as JSON
// arguments (`{"input": "…"}`), so it is sent as one delta when the call is complete. A web search the provider
// ran arrives whole, with its results: its web_search_call item is added and done at once (closing what was open,
// so the text after it is a message of its own, and its citations are counted from that message's start). A failed
// stream leaves open items open: a half-written tool call must never look done to an agent that runs it.

import type {
  ChatCompletionChunk,
  ChunkDelta,
  FinishReason,
  ReasoningDetail,
  Usage,
  WebSearchCall,
} from '../../../../shared/api/index.js';
import { processingKeepAlive } from '../../http/exchange.js';
import type { StreamEncoder } from '../../http/exchange.js';
import {
  annotationsOf,
  freeformInput,
  reasoningItem,
  responseShell,
  responsesUsageOf,
  statusOf,
  toolCallItem,
  webSearchCallItem,
  type MessageItem,
  type OutputItem,
  type ResponseIds,
  type ResponseObject,
} from './response-object.js';
import type { ResponsesTranslation } from './responses-request.js';

interface OpenReasoning {
  kind: 'reasoning';
  outputIndex: number;
  id: string;
  text: string;
  details: ReasoningDetail[];
  summaryOpen: boolean;
}

interface OpenMessage {
  kind: 'message';
  outputIndex: number;
  id: string;
  text: string;
  textIndex: number | null;
  refusal: string;
  refusalIndex: number | null;
  parts: number;
  annotations: unknown[];
  /** Where the message's text starts in the answer's: citations count from the answer's start. */
  contentStart: number;
}

interface OpenToolCall {
  kind: 'tool';
  outputIndex: number;
  item: OutputItem & { type: 'function_call' | 'custom_tool_call' };
  name: string;
  callId: string;
  arguments: string;
}

type OpenItem = OpenReasoning | OpenMessage | OpenToolCall;

export class ResponsesStreamEncoder implements StreamEncoder {
  private sequence = 0;
  private shell: ResponseObject | null = null;
  private readonly output: OutputItem[] = [];
  private open: OpenItem[] = [];
  private readonly toolCalls = new Map<number, OpenToolCall>();
  private finishReason: FinishReason | null = null;
  /** Characters of answer text streamed so far, across message items. */
  private contentLength = 0;
  private usage: Usage | null = null;
  private failure: { code: string; message: string } | null = null;

  constructor(
    private readonly translation: ResponsesTranslation,
    private readonly ids: ResponseIds,
    private readonly createdAt: number,
  ) {}

  chunk(chunk: ChatCompletionChunk): string {
    let text = this.start(chunk.model);
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.error) {
      this.failure = { code: failureCode(chunk.error.code), message: chunk.error.message };
      return text;
    }
    const choice = chunk.choices[0];
    if (!choice) return text;
    text += this.delta(choice.delta);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    return text;
  }

  end(): string {
    let text = this.start('');
    const response = { ...this.shell!, output: this.output, usage: this.usage ? responsesUsageOf(this.usage) : null };
    if (this.failure) {
      return text + this.event('response.failed', { response: { ...response, status: 'failed', error: this.failure } });
    }
    text += this.closeAll();
    const { status, incomplete_details } = statusOf(this.finishReason);
    const type = status === 'incomplete' ? 'response.incomplete' : 'response.completed';
    return text + this.event(type, { response: { ...response, output: this.output, status, incomplete_details } });
  }

  keepAlive(): string {
    return processingKeepAlive();
  }

  private start(model: string): string {
    if (this.shell) return '';
    const identity = { id: this.ids.response, createdAt: this.createdAt, model };
    this.shell = responseShell(this.translation, identity);
    return (
      this.event('response.created', { response: this.shell }) +
      this.event('response.in_progress', { response: this.shell })
    );
  }

  private delta(delta: ChunkDelta): string {
    let text = '';
    if (delta.reasoning || delta.reasoning_details?.length) text += this.reasoning(delta);
    if (delta.content) text += this.messageText('text', delta.content);
    if (delta.refusal) text += this.messageText('refusal', delta.refusal);
    if (delta.annotations) {
      const message = this.open.find((item): item is OpenMessage => item.kind === 'message');
      if (message) message.annotations.push(...citationsOf(delta.annotations, message.contentStart));
    }
    for (const search of delta.web_search_calls ?? []) text += this.webSearch(search);
    for (const call of delta.tool_calls ?? []) text += this.toolCall(call);
    return text;
  }

  private reasoning(delta: ChunkDelta): string {
    let text = '';
    let item = this.open.find((open): open is OpenReasoning => open.kind === 'reasoning');
    // Details alone (a signature) that the caller did not ask to see make no item of their own.
    if (!item && !delta.reasoning && !this.translation.includeEncryptedReasoning) return text;
    if (!item) {
      text += this.closeAll();
      const id = this.ids.item('rs');
      item = { kind: 'reasoning', outputIndex: this.output.length, id, text: '', details: [], summaryOpen: false };
      this.output.push({ type: 'reasoning', id, summary: [] });
      this.open = [item];
      text += this.event('response.output_item.added', {
        output_index: item.outputIndex,
        item: this.output[item.outputIndex],
      });
    }
    item.details.push(...(delta.reasoning_details ?? []));
    if (!delta.reasoning) return text;
    item.text += delta.reasoning;
    if (!this.translation.summarizeReasoning) return text;
    const where = { item_id: item.id, output_index: item.outputIndex, summary_index: 0 };
    if (!item.summaryOpen) {
      item.summaryOpen = true;
      text += this.event('response.reasoning_summary_part.added', {
        ...where,
        part: { type: 'summary_text', text: '' },
      });
    }
    return text + this.event('response.reasoning_summary_text.delta', { ...where, delta: delta.reasoning });
  }

  private messageText(kind: 'text' | 'refusal', piece: string): string {
    let text = '';
    let item = this.open.find((open): open is OpenMessage => open.kind === 'message');
    if (!item) {
      text += this.closeAll();
      const id = this.ids.item('msg');
      item = {
        kind: 'message',
        outputIndex: this.output.length,
        id,
        text: '',
        textIndex: null,
        refusal: '',
        refusalIndex: null,
        parts: 0,
        annotations: [],
        contentStart: this.contentLength,
      };
      const added: MessageItem = { type: 'message', id, role: 'assistant', status: 'in_progress', content: [] };
      this.output.push(added);
      this.open = [item];
      text += this.event('response.output_item.added', { output_index: item.outputIndex, item: added });
    }
    const where = { item_id: item.id, output_index: item.outputIndex };
    if (kind === 'text') {
      if (item.textIndex === null) {
        item.textIndex = item.parts++;
        const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
        text += this.event('response.content_part.added', { ...where, content_index: item.textIndex, part });
      }
      item.text += piece;
      this.contentLength += piece.length;
      return (
        text +
        this.event('response.output_text.delta', {
          ...where,
          content_index: item.textIndex,
          delta: piece,
          logprobs: [],
        })
      );
    }
    if (item.refusalIndex === null) {
      item.refusalIndex = item.parts++;
      const part = { type: 'refusal', refusal: '' };
      text += this.event('response.content_part.added', { ...where, content_index: item.refusalIndex, part });
    }
    item.refusal += piece;
    return text + this.event('response.refusal.delta', { ...where, content_index: item.refusalIndex, delta: piece });
  }

  private webSearch(search: WebSearchCall): string {
    let text = this.closeAll();
    const outputIndex = this.output.length;
    const done = webSearchCallItem(this.ids.item('ws'), search, this.translation);
    const added = { ...done, status: 'in_progress' as const };
    this.output.push(done);
    const where = { item_id: done.id, output_index: outputIndex };
    text += this.event('response.output_item.added', { output_index: outputIndex, item: added });
    text += this.event('response.web_search_call.in_progress', where);
    text += this.event('response.web_search_call.searching', where);
    if (done.status === 'completed') text += this.event('response.web_search_call.completed', where);
    return text + this.event('response.output_item.done', { output_index: outputIndex, item: done });
  }

  private toolCall(call: NonNullable<ChunkDelta['tool_calls']>[number]): string {
    let text = '';
    let open = this.toolCalls.get(call.index);
    if (!open) {
      if (this.open.some((item) => item.kind !== 'tool')) text += this.closeAll();
      const name = call.function?.name ?? '';
      const callId = call.id ?? `call_${this.ids.item('fc')}`;
      const item = toolCallItem({ id: callId, name, arguments: '' }, this.translation.naming, this.ids);
      const added = { ...item, status: 'in_progress' as const };
      open = { kind: 'tool', outputIndex: this.output.length, item: added, name, callId, arguments: '' };
      this.output.push(added);
      this.open.push(open);
      this.toolCalls.set(call.index, open);
      text += this.event('response.output_item.added', { output_index: open.outputIndex, item: added });
    }
    const piece = call.function?.arguments;
    if (!piece) return text;
    open.arguments += piece;
    if (open.item.type !== 'function_call') return text; // a freeform input goes out whole, once complete
    return (
      text +
      this.event('response.function_call_arguments.delta', {
        item_id: open.item.id,
        output_index: open.outputIndex,
        delta: piece,
      })
    );
  }

  private closeAll(): string {
    const text = this.open.map((item) => this.close(item)).join('');
    this.open = [];
    return text;
  }

  private close(item: OpenItem): string {
    switch (item.kind) {
      case 'reasoning':
        return this.closeReasoning(item);
      case 'message':
        return this.closeMessage(item);
      case 'tool':
        return this.closeToolCall(item);
    }
  }

  private closeReasoning(item: OpenReasoning): string {
    let text = '';
    if (item.summaryOpen) {
      const where = { item_id: item.id, output_index: item.outputIndex, summary_index: 0 };
      text += this.event('response.reasoning_summary_text.done', { ...where, text: item.text });
      text += this.event('response.reasoning_summary_part.done', {
        ...where,
        part: { type: 'summary_text', text: item.text },
      });
    }
    const done = reasoningItem(item.id, item, this.translation);
    this.output[item.outputIndex] = done;
    return text + this.event('response.output_item.done', { output_index: item.outputIndex, item: done });
  }

  private closeMessage(item: OpenMessage): string {
    let text = '';
    const where = { item_id: item.id, output_index: item.outputIndex };
    const content: MessageItem['content'] = [];
    if (item.textIndex !== null) {
      const part = { type: 'output_text' as const, text: item.text, annotations: item.annotations, logprobs: [] };
      content[item.textIndex] = part;
      text += this.event('response.output_text.done', {
        ...where,
        content_index: item.textIndex,
        text: item.text,
        logprobs: [],
      });
      text += this.event('response.content_part.done', { ...where, content_index: item.textIndex, part });
    }
    if (item.refusalIndex !== null) {
      const part = { type: 'refusal' as const, refusal: item.refusal };
      content[item.refusalIndex] = part;
      text += this.event('response.refusal.done', {
        ...where,
        content_index: item.refusalIndex,
        refusal: item.refusal,
      });
      text += this.event('response.content_part.done', { ...where, content_index: item.refusalIndex, part });
    }
    const status = this.finishReason === 'length' ? 'incomplete' : 'completed';
    const done: MessageItem = { type: 'message', id: item.id, role: 'assistant', status, content };
    this.output[item.outputIndex] = done;
    return text + this.event('response.output_item.done', { output_index: item.outputIndex, item: done });
  }

  private closeToolCall(open: OpenToolCall): string {
    let text = '';
    const where = { item_id: open.item.id, output_index: open.outputIndex };
    let done: OutputItem;
    if (open.item.type === 'function_call') {
      done = { ...open.item, arguments: open.arguments, status: 'completed' };
      text += this.event('response.function_call_arguments.done', {
        ...where,
        name: open.item.name,
        arguments: open.arguments,
      });
    } else {
      const input = freeformInput({ arguments: open.arguments });
      done = { ...open.item, input, status: 'completed' };
      if (input) text += this.event('response.custom_tool_call_input.delta', { ...where, delta: input });
      text += this.event('response.custom_tool_call_input.done', { ...where, input });
    }
    this.output[open.outputIndex] = done;
    this.toolCalls.forEach((call, index) => {
      if (call === open) this.toolCalls.delete(index);
    });
    return text + this.event('response.output_item.done', { output_index: open.outputIndex, item: done });
  }

  private event(type: string, fields: Record<string, unknown>): string {
    const data = JSON.stringify({ type, sequence_number: this.sequence++, ...fields });
    return `event: ${type}\ndata: ${data}\n\n`;
  }
}

/** Citations counted from the answer's start, counted from a message's start instead (`from`); others as they are. */
function citationsOf(annotations: readonly unknown[], from: number): unknown[] {
  return annotationsOf(annotations).flatMap((annotation) => {
    const { start_index: start, end_index: end } = annotation as { start_index?: unknown; end_index?: unknown };
    if (typeof start !== 'number' || typeof end !== 'number') return [annotation];
    if (start < from) return [];
    return [{ ...(annotation as object), start_index: start - from, end_index: end - from }];
  });
}

/** The Responses API's error code for a failure's status. */
export function failureCode(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 400 && status < 500) return 'invalid_prompt';
  return 'server_error';
}
