// Comparing models: one prompt, after the conversation so far, sent to two to four models at once through the same
// gateway client as the chat (so each answer's usage and cost are recorded under the chat's key like any reply).
// Each column streams out as events with its time to first token and total time. Nothing is stored until the
// person picks an answer: then the prompt and that answer join the conversation and its model becomes the chosen
// one; the other answers are dropped. Comparisons run without tools (a tool call would need approving per column).

import { randomUUID } from 'node:crypto';
import { newChatMessage, newCompareAnswer } from '../../shared/bridge/chat-message.js';
import { Emitter, type Event } from '../../shared/events/index.js';
import type {
  ChatMessage,
  CompareAnswer,
  CompareEvent,
  CompareSnapshot,
  Conversation,
  ModelOption,
} from '../../shared/bridge/types.js';
import type { Logger } from '../common/index.js';
import type { ChatStore } from '../store/index.js';
import { ChatError, StoppedByUser } from './chat-error.js';
import { requestSettings } from './chat-settings.js';
import { newConversationTitle, titleFrom, type ChatService } from './chat-service.js';
import type { ChatGateway } from './gateway-client.js';
import { nextChosenOrder } from './conversation-tree.js';
import { ReplyAccumulator } from './reply-accumulator.js';
import { replyCost } from './reply-cost.js';
import { toRequestMessages } from './request-messages.js';

export interface ChatCompareOptions {
  chat: Pick<ChatService, 'getConversation' | 'updateConversation' | 'renameConversation'>;
  table: Pick<ChatStore, 'insertMessage' | 'listMessages'>;
  gateway: ChatGateway;
  isPriced?: (model: string) => boolean;
  /** The models the chat offers, for what each can take (ModelOption). */
  models?: () => Promise<ModelOption[]>;
  logger: Logger;
  now?: () => number;
  /** For the timings: a monotonic clock in milliseconds. */
  clock?: () => number;
}

interface Column {
  controller: AbortController;
  answer: CompareAnswer;
  done: Promise<void>;
}

interface Comparison {
  id: string;
  conversationId: string;
  text: string;
  /** The id and time the prompt is stored with when an answer is picked. */
  questionId: string;
  /** The conversation's messages the prompt followed: an answer fits only after the same ones. */
  historyIds: string;
  createdAt: number;
  columns: Column[];
}

export class ChatCompare {
  private readonly comparisons = new Map<string, Comparison>();
  private readonly emitter: Emitter<CompareEvent>;
  readonly onEvent: Event<CompareEvent>;
  private readonly now: () => number;
  private readonly clock: () => number;

  constructor(private readonly options: ChatCompareOptions) {
    this.now = options.now ?? Date.now;
    this.clock = options.clock ?? (() => performance.now());
    this.emitter = new Emitter({
      onListenerError: (error) => options.logger.error({ err: error }, 'a compare event listener failed'),
    });
    this.onEvent = this.emitter.event;
  }

  /** Starts the columns; a comparison already running in this conversation is discarded first. */
  async start(conversationId: string, text: string, models: readonly string[]): Promise<{ compareId: string }> {
    const detail = await this.options.chat.getConversation(conversationId);
    if (detail.running) {
      throw new ChatError('conflict', 'This conversation is still answering: wait for it, or stop it first.');
    }
    for (const earlier of this.comparisons.values()) {
      if (earlier.conversationId === conversationId) this.discard(earlier.id);
    }
    const comparison: Comparison = {
      id: randomUUID(),
      conversationId,
      text,
      questionId: randomUUID(),
      historyIds: idsOf(detail.messages),
      createdAt: this.now(),
      columns: [],
    };
    const question = this.userMessage(comparison);
    const messages = toRequestMessages(detail.conversation, [...detail.messages, question]);
    // The conversation's settings go with every column, as with its own replies (the reasoning effort only to
    // models that may reason).
    const options = detail.conversation.reasoningEffort ? await this.listModels() : [];
    this.comparisons.set(comparison.id, comparison);
    this.emit({ type: 'compare-start', conversationId, compareId: comparison.id, text, models: [...models] });
    for (const [index, model] of models.entries()) {
      const column: Column = {
        controller: new AbortController(),
        answer: newCompareAnswer(model),
        done: Promise.resolve(),
      };
      comparison.columns.push(column);
      const request = {
        model,
        messages,
        stream_options: { include_usage: true },
        ...requestSettings(
          detail.conversation,
          options.find((option) => option.id === model),
        ),
      };
      column.done = this.runColumn(comparison, index, column, request).catch((error: unknown) => {
        this.options.logger.error({ err: error, conversationId }, 'a compared answer failed unexpectedly');
      });
    }
    void Promise.all(comparison.columns.map((column) => column.done)).then(() => {
      this.emit({ type: 'compare-finish', conversationId, compareId: comparison.id });
    });
    return { compareId: comparison.id };
  }

  /** The conversation's comparison as it stands, answers so far included; null when there is none. */
  snapshot(conversationId: string): CompareSnapshot | null {
    for (const comparison of this.comparisons.values()) {
      if (comparison.conversationId !== conversationId) continue;
      const { id: compareId, text, columns } = comparison;
      return { conversationId, compareId, text, columns: columns.map((column) => ({ ...column.answer })) };
    }
    return null;
  }

  /** Stops one column, or every column; false when nothing was streaming. */
  stop(compareId: string, column?: number): boolean {
    const comparison = this.comparisons.get(compareId);
    if (!comparison) return false;
    const columns = column === undefined ? comparison.columns : comparison.columns.slice(column, column + 1);
    let stopped = false;
    for (const each of columns) {
      if (each.answer.status !== 'streaming') continue;
      each.controller.abort(new StoppedByUser('The answer was stopped.'));
      stopped = true;
    }
    return stopped;
  }

  /**
   * The prompt and the chosen answer become the conversation's next messages, and the answer's model the
   * conversation's model; the other columns are stopped and the comparison forgotten.
   */
  async pick(compareId: string, column: number): Promise<{ conversation: Conversation; messages: ChatMessage[] }> {
    const comparison = this.comparisons.get(compareId);
    if (!comparison) throw new ChatError('not-found', 'This comparison is over: send the prompt again to compare.');
    const chosen = comparison.columns[column];
    if (!chosen) throw new ChatError('invalid-request', `There is no answer ${column + 1} in this comparison.`);
    const { answer } = chosen;
    if (answer.status === 'streaming') {
      throw new ChatError('conflict', 'This answer is still being written: wait for it, or stop it first.');
    }
    if (answer.status === 'error' || answer.text === '') {
      throw new ChatError('invalid-request', 'This answer has nothing to continue with: choose another.');
    }
    const { conversationId } = comparison;
    const detail = await this.options.chat.getConversation(conversationId);
    if (detail.running) {
      throw new ChatError('conflict', 'This conversation is still answering: wait for it, or stop it first.');
    }
    if (idsOf(detail.messages) !== comparison.historyIds) {
      throw new ChatError(
        'conflict',
        'The conversation changed since this comparison started, so its answers no longer follow it: compare again.',
      );
    }
    this.discard(compareId);
    // The pair continues the conversation as shown: the question follows its last message, the answer the question.
    const order = nextChosenOrder(await this.options.table.listMessages(conversationId));
    const question = {
      ...this.userMessage(comparison),
      parentId: detail.messages.at(-1)?.id ?? null,
      chosenOrder: order,
    };
    const reply = newChatMessage({
      id: randomUUID(),
      conversationId,
      parentId: question.id,
      chosenOrder: order + 1,
      role: 'assistant',
      content: answer.text,
      reasoning: answer.reasoning === '' ? null : answer.reasoning,
      usage: answer.usage,
      cost: answer.cost,
      model: answer.model,
      status: answer.status,
      createdAt: Math.max(this.now(), question.createdAt + 1),
    });
    await this.options.table.insertMessage(question);
    await this.options.table.insertMessage(reply);
    if (detail.conversation.title === newConversationTitle) {
      await this.options.chat.renameConversation(conversationId, titleFrom(comparison.text));
    }
    const conversation = await this.options.chat.updateConversation(conversationId, { model: answer.model });
    return { conversation, messages: [question, reply] };
  }

  /** Stops the comparison's columns and forgets it. */
  discard(compareId: string): boolean {
    const comparison = this.comparisons.get(compareId);
    if (!comparison) return false;
    this.stop(compareId);
    this.comparisons.delete(compareId);
    return true;
  }

  /** Stops every comparison and waits for their columns to end. */
  async close(): Promise<void> {
    const columns = [...this.comparisons.values()].flatMap((comparison) => comparison.columns);
    for (const id of [...this.comparisons.keys()]) this.discard(id);
    await Promise.all(columns.map((column) => column.done));
  }

  private async runColumn(
    comparison: Comparison,
    index: number,
    column: Column,
    request: Parameters<ChatGateway['stream']>[0],
  ): Promise<void> {
    const { signal } = column.controller;
    const { answer } = column;
    const ids = { conversationId: comparison.conversationId, compareId: comparison.id, column: index };
    const started = this.clock();
    const reply = new ReplyAccumulator();
    try {
      for await (const chunk of this.options.gateway.stream(request, signal)) {
        const { text, reasoning } = reply.accept(chunk);
        if (text === '' && reasoning === '') continue;
        const first = answer.firstTokenMs === null;
        answer.firstTokenMs ??= Math.round(this.clock() - started);
        answer.text = reply.text;
        answer.reasoning = reply.reasoning;
        this.emit({
          type: 'column-delta',
          ...ids,
          text,
          reasoning,
          ...(first ? { firstTokenMs: answer.firstTokenMs } : {}),
        });
      }
      answer.error = reply.error;
    } catch (error) {
      if (!signal.aborted) answer.error = error instanceof Error ? error.message : String(error);
    }
    answer.totalMs = Math.round(this.clock() - started);
    answer.text = reply.text;
    answer.reasoning = reply.reasoning;
    answer.usage = reply.usage;
    answer.cost = replyCost(reply.usage?.cost, answer.model, this.options.isPriced);
    answer.status = signal.aborted ? 'stopped' : answer.error ? 'error' : 'complete';
    this.emit({ type: 'column-finish', ...ids, answer: { ...answer } });
  }

  /** The prompt as the message it becomes when an answer is picked (the same id and time in every request). */
  private userMessage(comparison: Comparison): ChatMessage {
    return newChatMessage({
      id: comparison.questionId,
      conversationId: comparison.conversationId,
      role: 'user',
      content: comparison.text,
      status: 'complete',
      createdAt: comparison.createdAt,
    });
  }

  private async listModels(): Promise<ModelOption[]> {
    return (await this.options.models?.().catch(() => [])) ?? [];
  }

  private emit(event: CompareEvent): void {
    this.emitter.fire(event);
  }
}

function idsOf(messages: readonly ChatMessage[]): string {
  return messages.map((message) => message.id).join('\n');
}
