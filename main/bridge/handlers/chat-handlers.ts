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
  | 'chat:resolve-approval'
  | 'chat:place-conversation'
  | 'chat:list-presets'
  | 'chat:save-preset'
  | 'chat:delete-preset'
  | 'chat:list-folders'
  | 'chat:save-folder'
  | 'chat:delete-folder'
  | 'chat:show-version'
  | 'chat:export-conversation'
  | 'chat:import-conversation';

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
    'chat:place-conversation': async ({ id, ...place }) => ({ conversation: await chat.folders.place(id, place) }),
    'chat:list-presets': async () => ({ presets: await chat.presets.list() }),
    'chat:save-preset': async (fields) => ({ preset: await chat.presets.save(fields) }),
    'chat:delete-preset': async ({ id }) => ({ deleted: await chat.presets.delete(id) }),
    'chat:list-folders': async () => ({ folders: await chat.folders.list() }),
    'chat:save-folder': async (fields) => ({ folder: await chat.folders.save(fields) }),
    'chat:delete-folder': async ({ id }) => ({ deleted: await chat.folders.delete(id) }),
    'chat:show-version': ({ conversationId, messageId }) => chat.showVersion(conversationId, messageId),
    'chat:export-conversation': ({ id, format }) => chat.exportConversation(id, format),
    'chat:import-conversation': async ({ text }) => ({ conversation: await chat.importConversation(text) }),
  };
}
