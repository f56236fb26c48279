// Export and import through the bridge, as the UI uses them, on a real conversation with a tool call, its result,
// usage and cost, and two versions of a reply: the JSON export imports back to the same conversation (export →
// import → export gives the same file but for the documented fields), and what is not an export is refused with
// a clear message.

import { describe, expect, it } from 'vitest';
import { maxImportChars } from '../../shared/bridge/limits.js';
import { waitFor } from '../support/wait-for.js';
import { useChatBridge } from './chat-test-app.js';

const chat = useChatBridge();
const { call, failure } = chat;

const finished = (conversationId: string) => chat.eventsOf(conversationId, 'turn-finish').length;

/** Every setting of a conversation, each other than its default, so that an export that drops one shows. */
const settings = {
  temperature: 0.5,
  maxTokens: 300,
  topP: 0.9,
  seed: 7,
  stop: ['END'],
  reasoningEffort: 'low' as const,
};

/** A conversation: a tool call approved and answered, then its first reply regenerated (two versions). */
async function conversationWithToolsAndVersions() {
  const { conversation } = await call('chat:create-conversation', { model: 'fake/scripted-1', ...settings });
  await call('chat:send', { conversationId: conversation.id, text: 'please echo plum' });
  await chat.approveOnce(conversation.id);
  await waitFor(() => finished(conversation.id) === 1, { what: 'the first turn' });
  await call('chat:send', { conversationId: conversation.id, text: 'thanks' });
  await waitFor(() => finished(conversation.id) === 2, { what: 'the second turn' });
  const { messages } = await call('chat:get-conversation', { id: conversation.id });
  await call('chat:regenerate', { conversationId: conversation.id, messageId: messages.at(-1)!.id });
  await waitFor(() => finished(conversation.id) === 3, { what: 'the regenerated reply' });
  return conversation;
}

/** The export with each message id replaced by its place in the file, and the fields an import renews left out. */
function comparable(text: string) {
  const exported = JSON.parse(text);
  const place = new Map<string, number>(
    exported.messages.map((message: { id: string }, index: number) => [message.id, index]),
  );
  return {
    ...exported,
    exportedAt: 0,
    conversation: { ...exported.conversation, updatedAt: 0 },
    messages: exported.messages.map((message: { id: string; parentId: string | null }) => ({
      ...message,
      id: place.get(message.id),
      parentId: message.parentId === null ? null : place.get(message.parentId),
    })),
  };
}

describe('export and import', () => {
  it('imports a JSON export back to the same conversation, every version, call, result, usage and cost', async () => {
    const conversation = await conversationWithToolsAndVersions();
    const exported = await call('chat:export-conversation', { id: conversation.id, format: 'json' });
    expect(exported).toMatchObject({ fileName: 'please-echo-plum.json', mimeType: 'application/json' });
    const file = JSON.parse(exported.text);
    expect(file.conversation).toMatchObject({ title: 'please echo plum', model: 'fake/scripted-1', ...settings });
    expect(file.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'assistant',
    ]);
    expect(file.messages[1].toolCalls[0]).toMatchObject({ mcp: { server: 'everything', tool: 'echo' } });
    expect(file.messages[3]).toMatchObject({ cost: expect.any(Number), usage: { total_tokens: expect.any(Number) } });

    const { conversation: imported } = await call('chat:import-conversation', { text: exported.text });
    expect(imported.id).not.toBe(conversation.id);
    expect((await call('chat:list-conversations', {})).conversations[0]!.id).toBe(imported.id);
    const again = await call('chat:export-conversation', { id: imported.id, format: 'json' });
    expect(comparable(again.text)).toEqual(comparable(exported.text));
    expect(JSON.parse(again.text).messages.map((message: { id: string }) => message.id)).not.toContain(
      file.messages[0].id,
    );

    // Shown alike: the same path, the same versions.
    const [original, copy] = await Promise.all(
      [conversation.id, imported.id].map((id) => call('chat:get-conversation', { id })),
    );
    expect(copy.messages.map((message) => [message.role, message.content])).toEqual(
      original!.messages.map((message) => [message.role, message.content]),
    );
    expect(Object.values(copy.versions ?? {})).toHaveLength(1);

    const markdown = await call('chat:export-conversation', { id: imported.id, format: 'markdown' });
    expect(markdown.fileName).toBe('please-echo-plum.md');
    expect(markdown.text).toContain(
      '# please echo plum\n\nModel: fake/scripted-1 · temperature 0.5 · max tokens 300 · top_p 0.9 · seed 7 · ' +
        'stop "END" · reasoning effort low\n',
    );
    expect(markdown.text).toContain('### Tool call: everything / echo\n\n```json\n{\n  "message": "plum"\n}\n```');
    expect(markdown.text).toContain('### Result (complete)\n\n```\nEcho: plum\n```');
  });

  it('refuses a file that is not an export with a clear message, and creates nothing', async () => {
    const before = (await call('chat:list-conversations', {})).conversations.length;
    expect(await failure('chat:import-conversation', { text: 'not json' })).toEqual({
      code: 'invalid-request',
      message: 'This file is not JSON: choose a conversation exported as JSON.',
    });
    expect(await failure('chat:import-conversation', { text: '{"mcpServers": {}}' })).toEqual({
      code: 'invalid-request',
      message: 'This file is not a conversation exported from Switchyard.',
    });
    expect(
      await failure('chat:import-conversation', {
        text: JSON.stringify({ format: 'switchyard-conversation', version: 1, exportedAt: 1, messages: [] }),
      }),
    ).toMatchObject({ code: 'invalid-request', message: expect.stringMatching(/damaged at conversation/) });
    expect(await failure('chat:import-conversation', { text: 'x'.repeat(maxImportChars + 1) })).toMatchObject({
      code: 'invalid-request',
      message: expect.stringContaining('larger than 5,000,000 characters'),
    });
    expect(await failure('chat:export-conversation', { id: 'none', format: 'json' })).toMatchObject({
      code: 'not-found',
    });
    expect((await call('chat:list-conversations', {})).conversations).toHaveLength(before);
  });
});
