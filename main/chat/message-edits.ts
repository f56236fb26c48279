// Changing a conversation's history: a reply answered again, a message of the user's written anew, a message
// deleted with what followed it, an older version shown. A conversation is a tree (conversation-tree.ts): a new
// version goes beside the old one, which keeps what followed it. Nothing here runs while a turn does.

import { isAttachedTextPart } from '../../shared/bridge/chat-message.js';
import type { ChatMessage, Conversation, ModelOption } from '../../shared/bridge/types.js';
import { hasDocument } from './attached-files.js';
import { checkDocumentInput, checkImageInput, hasImage } from './attached-resources.js';
import { ChatError } from './chat-error.js';
import type { ChatTurns } from './chat-turns.js';
import { requireMessageIndex, type ConversationRecords } from './conversation-records.js';
import { nextChosenOrder, pathTo, shownPath, subtreeIds } from './conversation-tree.js';

export interface MessageEditsOptions {
  records: ConversationRecords;
  turns: ChatTurns;
  /** The models the picker offers (for the image and PDF checks). */
  models: () => Promise<ModelOption[]>;
}

export class MessageEdits {
  private readonly records: ConversationRecords;
  private readonly turns: ChatTurns;

  constructor(private readonly options: MessageEditsOptions) {
    this.records = options.records;
    this.turns = options.turns;
  }

  /** Shows this version of its place in the conversation, with what followed it when it was last shown. */
  async showVersion(conversationId: string, messageId: string): Promise<void> {
    await this.turns.requireIdle(conversationId);
    const stored = await this.records.table.listMessages(conversationId);
    requireMessageIndex(stored, messageId);
    const shown = new Set(shownPath(stored).map((message) => message.id));
    let order = nextChosenOrder(stored);
    for (const message of pathTo(stored, messageId)) {
      if (!shown.has(message.id)) await this.records.table.updateMessage(message.id, { chosenOrder: order++ });
    }
  }

  /**
   * Answers the user message before this reply again, with `model` when given (it becomes the conversation's
   * model): the new reply is a new version beside the first reply to that message, which stays. Answers the
   * conversation.
   */
  async regenerate(conversationId: string, messageId: string, model?: string): Promise<Conversation> {
    await this.turns.stopIfAwaitingApproval(conversationId);
    const findQuestion = async () => {
      await this.turns.requireIdle(conversationId);
      const messages = await this.shownMessages(conversationId, messageId);
      const at = requireMessageIndex(messages, messageId);
      if (messages[at]!.role !== 'assistant')
        throw new ChatError('invalid-request', 'Only a reply can be regenerated.');
      const question = messages.findLastIndex((message, index) => index < at && message.role === 'user');
      if (question < 0) throw new ChatError('invalid-request', 'This reply answers no message of yours.');
      return { messages, question };
    };
    const asked = await findQuestion();
    const asking = asked.messages.slice(0, asked.question + 1);
    if (model && asking.some(hasImage)) await checkImageInput(this.options.models, model);
    if (model && asking.some(hasDocument)) await checkDocumentInput(this.options.models, model);
    const { messages, question } = await findQuestion(); // again: a turn may have started or ended meanwhile
    if (model) await this.records.update(conversationId, { model });
    const conversation = await this.turns.requireReady(conversationId);
    await this.turns.preparingTurn(conversationId, messages[question]!.id, async () => undefined);
    return conversation;
  }

  /**
   * Writes a new version of one of the user's messages with this text (its images stay) beside the old one, which
   * keeps what followed it, and starts a new turn from there. Answers the new version.
   */
  async editMessage(conversationId: string, messageId: string, text: string): Promise<ChatMessage> {
    await this.turns.stopIfAwaitingApproval(conversationId);
    await this.turns.requireReady(conversationId);
    const messages = await this.shownMessages(conversationId, messageId);
    const at = requireMessageIndex(messages, messageId);
    const message = messages[at]!;
    if (message.role !== 'user') throw new ChatError('invalid-request', 'Only your own messages can be edited.');
    // Its images and attached resources stay; only the typed text changes.
    const attached =
      typeof message.content === 'string'
        ? []
        : (message.content ?? []).filter((p) => p.type !== 'text' || isAttachedTextPart(p));
    if (text.trim() === '' && attached.length === 0) {
      throw new ChatError('invalid-request', 'A message needs text or an image: delete it instead.');
    }
    const content: ChatMessage['content'] =
      attached.length === 0 ? text : [...(text.trim() === '' ? [] : [{ type: 'text' as const, text }]), ...attached];
    const edited = this.records.newMessage(conversationId, {
      role: 'user',
      content,
      status: 'complete',
      parentId: message.parentId,
      chosenOrder: nextChosenOrder(await this.records.table.listMessages(conversationId)),
    });
    await this.turns.preparingTurn(conversationId, edited.id, async () => {
      await this.records.table.insertMessage(edited);
      await this.records.update(conversationId, {});
    });
    return edited;
  }

  /**
   * Deletes one message and everything that follows it, in every version (a reply's tool results among them: a
   * result without its call would make the history invalid). Where it had other versions, the one chosen last is
   * shown. Answers the ids deleted.
   */
  async deleteMessage(conversationId: string, messageId: string): Promise<string[]> {
    await this.turns.requireIdle(conversationId);
    const messages = await this.records.table.listMessages(conversationId);
    const at = requireMessageIndex(messages, messageId);
    const message = messages[at]!;
    if (message.role === 'tool') {
      throw new ChatError('invalid-request', 'A tool result belongs to the reply that called the tool: delete that.');
    }
    const ids = subtreeIds(messages, message.id);
    await this.records.table.deleteMessages(ids);
    await this.records.update(conversationId, {});
    return ids;
  }

  /**
   * The shown path, when `messageId` is on it: a version out of sight cannot be regenerated or edited (its place
   * in the history would be another than the one the user sees).
   */
  private async shownMessages(conversationId: string, messageId: string): Promise<ChatMessage[]> {
    const stored = await this.records.table.listMessages(conversationId);
    requireMessageIndex(stored, messageId);
    const path = shownPath(stored);
    if (!path.some((message) => message.id === messageId)) {
      throw new ChatError('invalid-request', 'This version is not shown: show it first.');
    }
    return path;
  }
}
