import type { ChatService } from '../../chat/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

type ChatChannel =
  | 'chat:list-conversations'
  | 'chat:create-conversation'
  | 'chat:get-conversation'
  | 'chat:rename-conversation'
  | 'chat:delete-conversation'
  | 'chat:update-conversation'
  | 'chat:send'
  | 'chat:regenerate'
  | 'chat:edit-message'
  | 'chat:delete-message'
  | 'chat:stop'
  | 'chat:resolve-approval';

export function chatHandlers(chat: ChatService): BridgeHandlerMap<ChatChannel> {
  return {
    'chat:list-conversations': async ({ query }) => ({ conversations: await chat.listConversations(query) }),
    'chat:create-conversation': async (fields) => ({ conversation: await chat.createConversation(fields) }),
    'chat:get-conversation': ({ id }) => chat.getConversation(id),
    'chat:rename-conversation': async ({ id, title }) => ({
      conversation: await chat.renameConversation(id, title),
    }),
    'chat:delete-conversation': async ({ id }) => ({ deleted: await chat.deleteConversation(id) }),
    'chat:update-conversation': async ({ id, ...changes }) => ({
      conversation: await chat.updateConversation(id, changes),
    }),
    'chat:send': async ({ conversationId, text, images, resources, documents, textFiles }) => ({
      message: await chat.send(conversationId, text, images, resources, { documents, textFiles }),
    }),
    'chat:regenerate': async ({ conversationId, messageId, model }) => ({
      conversation: await chat.regenerate(conversationId, messageId, model),
    }),
    'chat:edit-message': async ({ conversationId, messageId, text }) => ({
      message: await chat.editMessage(conversationId, messageId, text),
    }),
    'chat:delete-message': async ({ conversationId, messageId }) => ({
      deleted: await chat.deleteMessage(conversationId, messageId),
    }),
    'chat:stop': async ({ conversationId }) => ({ stopped: await chat.stop(conversationId) }),
    'chat:resolve-approval': ({ conversationId, toolCallId, decision }) => ({
      resolved: chat.resolveApproval(conversationId, toolCallId, decision),
    }),
  };
}
