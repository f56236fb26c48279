import { describe, expect, it } from 'vitest';
import { newChatMessage } from '../../shared/bridge/chat-message.js';
import type { ChatMessage, Conversation } from '../../shared/bridge/types.js';
import { ChatError } from './chat-error.js';
import {
  conversationJson,
  conversationMarkdown,
  exportConversation,
  importedConversation,
  parseConversationExport,
} from './conversation-export.js';

const conversation: Conversation = {
  id: 'c1',
  title: 'Plums: a `tool` test',
  model: 'fake/scripted-1',
  systemPrompt: 'Be brief.',
  temperature: 0.4,
  maxTokens: 500,
  topP: null,
  seed: 3,
  stop: ['###'],
  reasoningEffort: null,
  pinned: false,
  folderId: null,
  createdAt: 100,
  updatedAt: 200,
};

const message = (id: string, fields: Partial<ChatMessage> & Pick<ChatMessage, 'role'>) =>
  newChatMessage({ id, conversationId: 'c1', status: 'complete', createdAt: 110, ...fields });

const call = {
  id: 'call_1',
  type: 'function' as const,
  function: { name: 'everything__echo', arguments: '{"message":"plum"}' },
  mcp: { server: 'everything', tool: 'echo' },
};

// q ─ old reply
//   └ caller ─ result ─ answer (shown)
const stored: ChatMessage[] = [
  message('q', { role: 'user', content: 'please echo plum', chosenOrder: 1 }),
  message('old', { role: 'assistant', content: 'An older reply.', parentId: 'q', chosenOrder: 2, model: 'fake/a' }),
  message('caller', { role: 'assistant', toolCalls: [call], parentId: 'q', chosenOrder: 3, model: 'fake/b' }),
  message('result', {
    role: 'tool',
    toolCallId: 'call_1',
    content: [
      { type: 'text', text: 'Echo: plum ```' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ],
    parentId: 'caller',
  }),
  message('answer', {
    role: 'assistant',
    content: 'The tool said plum.',
    reasoning: 'Short.',
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30, prompt_tokens_details: { cached_tokens: 4 } },
    cost: 0.0002,
    model: 'fake/b',
    parentId: 'result',
    chosenOrder: 4,
  }),
];

let counter = 0;
const newId = () => `new-${++counter}`;

describe('the JSON export', () => {
  it('imports back as the same conversation: only ids, updatedAt and exportedAt differ', () => {
    const file = exportConversation(conversation, stored, 'json', 1_000);
    expect(file).toMatchObject({ fileName: 'Plums-a-tool-test.json', mimeType: 'application/json' });
    const imported = importedConversation(parseConversationExport(file.text), { newId, now: 2_000 });
    expect(imported.conversation).toEqual({ ...conversation, id: imported.conversation.id, updatedAt: 2_000 });
    expect(imported.messages.map((each) => each.conversationId)).toEqual(stored.map(() => imported.conversation.id));

    const again = conversationJson(imported.conversation, imported.messages, 3_000);
    const ids = new Map(imported.messages.map((each, index) => [each.id, stored[index]!.id]));
    const original = JSON.parse(file.text);
    expect({
      ...again,
      exportedAt: original.exportedAt,
      conversation: { ...again.conversation, updatedAt: original.conversation.updatedAt },
      messages: again.messages.map((each) => ({
        ...each,
        id: ids.get(each.id),
        parentId: each.parentId === null ? null : ids.get(each.parentId),
      })),
    }).toEqual(original);
  });

  it('refuses what is not an export, saying what is wrong, and never throws anything but a ChatError', () => {
    const valid = JSON.parse(exportConversation(conversation, stored, 'json', 1).text);
    const refusal = (text: string) => {
      try {
        parseConversationExport(text);
      } catch (error) {
        expect(error).toBeInstanceOf(ChatError);
        return (error as ChatError).message;
      }
      throw new Error('accepted');
    };
    expect(refusal('{"format": ')).toBe('This file is not JSON: choose a conversation exported as JSON.');
    expect(refusal('null')).toBe('This file is not a conversation exported from Switchyard.');
    expect(refusal('[1, 2]')).toBe('This file is not a conversation exported from Switchyard.');
    expect(refusal(JSON.stringify({ mcpServers: {} }))).toBe(
      'This file is not a conversation exported from Switchyard.',
    );
    expect(refusal(JSON.stringify({ ...valid, version: 2 }))).toMatch(
      /^This conversation file is damaged at version: /,
    );
    const badRole = { ...valid, messages: [{ ...valid.messages[0], role: 'system' }] };
    expect(refusal(JSON.stringify(badRole))).toMatch(/^This conversation file is damaged at messages\.0\.role: /);
    const orphan = { ...valid, messages: valid.messages.slice(1) };
    expect(refusal(JSON.stringify(orphan))).toBe(
      'This conversation file is damaged: message 1 follows a message that is not before it.',
    );
    const twice = { ...valid, messages: [valid.messages[0], valid.messages[0]] };
    expect(refusal(JSON.stringify(twice))).toBe('This conversation file is damaged: message 2 repeats an id.');
  });

  it('imports a reply exported while it was written as stopped', () => {
    const writing = [
      message('q', { role: 'user', content: 'hi' }),
      message('r', { role: 'assistant', status: 'streaming', parentId: 'q' }),
    ];
    const text = exportConversation(conversation, writing, 'json', 1).text;
    expect(importedConversation(parseConversationExport(text), { newId, now: 1 }).messages[1]!.status).toBe('stopped');
  });
});

describe('the Markdown export', () => {
  it('reads as the conversation shown, with its tool call and result in fences', () => {
    const file = exportConversation(conversation, stored, 'markdown', 1);
    expect(file).toMatchObject({ fileName: 'Plums-a-tool-test.md', mimeType: 'text/markdown' });
    expect(file.text).toBe(
      [
        '# Plums: a `tool` test',
        '',
        'Model: fake/scripted-1 · temperature 0.4 · max tokens 500 · seed 3 · stop "###"',
        '',
        'Some messages have other versions; this is the one shown. The JSON export has them all.',
        '',
        '## System prompt',
        '',
        'Be brief.',
        '',
        '## You',
        '',
        'please echo plum',
        '',
        '## Assistant (fake/b)',
        '',
        '### Tool call: everything / echo',
        '',
        '```json',
        '{',
        '  "message": "plum"',
        '}',
        '```',
        '',
        '### Result (complete)',
        '',
        '````',
        'Echo: plum ```',
        '',
        '[image]',
        '````',
        '',
        '## Assistant (fake/b)',
        '',
        '### Reasoning',
        '',
        '> Short.',
        '',
        'The tool said plum.',
        '',
      ].join('\n'),
    );
    expect(conversationMarkdown({ ...conversation, title: '???' }, [])).toContain('# ???');
    expect(exportConversation({ ...conversation, title: '???' }, [], 'json', 1).fileName).toBe('conversation.json');
  });
});
