// The tool calls of a turn's reply: each is run at once when its server's tool is auto-approved, or after the user
// decides; its result is stored as a `tool` message that follows the reply, so the next model call sees it. A
// denied call is answered as denied; after a stop, every call still without a result is answered as stopped, so
// the history stays valid for the next turn.

import type {
  ApprovalDecision,
  ChatEvent,
  ChatMessage,
  ChatToolCall,
  PendingApproval,
} from '../../shared/bridge/types.js';
import { resultsOf } from '../../shared/bridge/chat-message.js';
import { toMediaPart } from '../../shared/bridge/tool-media.js';
import type { Logger } from '../common/index.js';
import type { ChatTools, ToolOutcome, ToolTarget } from './chat-tools.js';
import type { ConversationRecords } from './conversation-records.js';
import { pathTo } from './conversation-tree.js';
import type { Turn } from './turn.js';

export interface TurnToolCallsOptions {
  records: ConversationRecords;
  tools: ChatTools;
  logger: Logger;
  emit(event: ChatEvent): void;
}

/** A denied call's result, as the model reads it. */
export const deniedToolResult = 'The user denied this tool call.';
/** The result of a call that a stop cut short, or that never ran because of one. */
export const stoppedToolResult = 'The user stopped this tool call before it finished.';

export class TurnToolCalls {
  constructor(private readonly options: TurnToolCallsOptions) {}

  async run(conversationId: string, turn: Turn, messageId: string, call: ChatToolCall) {
    const { signal } = turn.controller;
    const target = this.options.tools.resolve(call.function.name);
    const autoApproved = target?.autoApproved ?? false;
    this.options.emit({ type: 'tool-call', conversationId, messageId, toolCall: call, autoApproved });

    let outcome: ToolOutcome;
    let status: ChatMessage['status'];
    if (!target) {
      outcome = { text: `Error: there is no tool "${call.function.name}".`, isError: true };
      status = 'error';
    } else {
      const decision = autoApproved ? 'once' : await this.askApproval(conversationId, turn, messageId, call, target);
      if (decision === 'deny') {
        outcome = { text: deniedToolResult, isError: false };
        status = 'denied';
      } else {
        if (decision === 'always') await this.allowAlways(target.server, target.tool);
        outcome = await this.options.tools.call(call.function.name, call.function.arguments, signal);
        status = signal.aborted ? 'stopped' : outcome.isError ? 'error' : 'complete';
      }
    }
    const message = this.options.records.newMessage(conversationId, {
      role: 'tool',
      toolCallId: call.id,
      content: toolMessageContent(outcome),
      status,
      error: status === 'error' ? firstLine(outcome.text) : null,
      parentId: turn.leafId,
    });
    await this.options.records.table.insertMessage(message);
    turn.leafId = message.id;
    this.options.emit({ type: 'tool-result', conversationId, message });
    if (signal.aborted) throw signal.reason;
  }

  private askApproval(
    conversationId: string,
    turn: Turn,
    messageId: string,
    call: ChatToolCall,
    target: ToolTarget,
  ): Promise<ApprovalDecision> {
    const { signal } = turn.controller;
    if (signal.aborted) return Promise.reject(signal.reason);
    const approval: PendingApproval = {
      conversationId,
      messageId,
      toolCallId: call.id,
      functionName: call.function.name,
      server: target.server,
      tool: target.tool,
      arguments: call.function.arguments,
      ...(target.hints ? { hints: target.hints } : {}),
    };
    return new Promise<ApprovalDecision>((resolve, reject) => {
      const onAbort = () => {
        turn.approvals.delete(call.id);
        reject(signal.reason);
      };
      turn.approvals.set(call.id, {
        approval,
        decide: (decision) => {
          signal.removeEventListener('abort', onAbort);
          turn.approvals.delete(call.id);
          this.options.emit({ type: 'approval-resolved', conversationId, toolCallId: call.id, decision });
          resolve(decision);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      this.options.emit({ type: 'approval-required', conversationId, approval });
    });
  }

  private async allowAlways(server: string, tool: string): Promise<void> {
    try {
      await this.options.tools.allowAlways(server, tool);
    } catch (error) {
      // The call still runs: the user approved it. Only the "always" could not be saved.
      this.options.logger.warn({ err: error, server, tool }, 'could not add the tool to autoApprove');
    }
  }

  /** After a stop: every call of the last reply without a result gets one, so the history stays valid. */
  async answerUnanswered(conversationId: string, turn: Turn): Promise<void> {
    const messages = pathTo(await this.options.records.table.listMessages(conversationId), turn.leafId);
    const at = messages.findLastIndex((message) => message.role === 'assistant');
    const calls = messages[at]?.toolCalls ?? [];
    const results = resultsOf(calls, messages, at);
    for (const [index, call] of calls.entries()) {
      if (results[index]) continue;
      const message = this.options.records.newMessage(conversationId, {
        role: 'tool',
        toolCallId: call.id,
        content: stoppedToolResult,
        status: 'stopped',
        parentId: turn.leafId,
      });
      await this.options.records.table.insertMessage(message);
      turn.leafId = message.id;
      this.options.emit({ type: 'tool-result', conversationId, message });
    }
  }

  withTarget(call: ChatToolCall): ChatToolCall {
    const target = this.options.tools.resolve(call.function.name);
    return target ? { ...call, mcp: { server: target.server, tool: target.tool } } : call;
  }
}

/** The text, and after it any images and audio as parts (request-messages.ts gives the model the text only). */
function toolMessageContent(outcome: ToolOutcome): ChatMessage['content'] {
  const media = outcome.media ?? [];
  if (media.length === 0) return outcome.text;
  return [{ type: 'text', text: outcome.text }, ...media.map(toMediaPart)];
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
