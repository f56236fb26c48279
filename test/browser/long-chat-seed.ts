// A long conversation written straight into a data dir before `switchyard serve` starts, as a person's history
// would be after an afternoon of chatting: user messages (some with an image), markdown replies with code blocks
// and wide tables, tool calls with their results (one of them failed), failed replies with their error, and
// replies with reasoning.

import type { ChatMessage, Conversation } from '../../shared/bridge/types.js';
import { newChatMessage } from '../../shared/bridge/chat-message.js';
import { withSeedApp } from './seed.js';

export const longChatTitle = 'A long afternoon';

/** An image a browser draws at its size (320×180), as a data URL the UI's CSP allows. */
const imageUrl = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180"><rect width="320" height="180" fill="#6b94ff"/>' +
    '<circle cx="160" cy="90" r="60" fill="#ffffff"/></svg>',
).toString('base64')}`;

const codeReply = (index: number) =>
  `Here is version ${index} of the function:\n\n\`\`\`ts\n` +
  Array.from({ length: 14 }, (_, line) => `const value${line} = compute(${line}, "${'x'.repeat(line * 6)}");`).join(
    '\n',
  ) +
  '\n```\n\nIt runs in **linear** time.';

const tableReply = (index: number) =>
  `Comparison ${index}:\n\n| Provider | Model | Context | Input | Output | Vision | Tools | Notes |\n` +
  '|---|---|---|---|---|---|---|---|\n' +
  Array.from(
    { length: 6 },
    (_, row) =>
      `| provider-${row} | model-with-a-long-name-${row} | 128000 | $0.${row}5 | $1.${row}0 | yes | yes | ` +
      `a remark that is long enough to make the table wider than a narrow window |`,
  ).join('\n');

/** What the seeded conversation shows: how many message boxes, and the text of the newest. */
export const longChatShape = { boxes: 40, newestText: 'The last word of the afternoon.' };

export function seedLongConversation(dataDir: string): Promise<Conversation> {
  return withSeedApp(dataDir, async (app) => {
    const start = Date.UTC(2026, 10, 24, 12);
    const conversation: Conversation = {
      id: 'long-chat',
      title: longChatTitle,
      model: 'fake/scripted-1',
      systemPrompt: '',
      temperature: null,
      createdAt: start,
      updatedAt: start + 1_000_000,
    };
    await app.store.chat.insertConversation(conversation);
    let clock = start;
    let previous: string | null = null; // one line: each message follows the one before it
    const add = async (fields: Partial<ChatMessage> & Pick<ChatMessage, 'role'>) => {
      clock += 1_000;
      const message = newChatMessage({
        id: `m${clock - start}`,
        conversationId: conversation.id,
        status: 'complete',
        createdAt: clock,
        parentId: previous,
        ...fields,
      });
      previous = message.id;
      await app.store.chat.insertMessage(message);
    };
    const reply = (fields: Partial<ChatMessage> = {}) =>
      add({
        role: 'assistant',
        model: conversation.model,
        usage: { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 },
        cost: 0.0004,
        ...fields,
      });

    // 38 boxes in rounds of eight kinds, then a last question and its answer.
    for (let round = 0; round < 19; round += 1) {
      switch (round % 8) {
        case 0:
          await add({ role: 'user', content: `Question ${round}: can you write the function again, a bit faster?` });
          await reply({ content: codeReply(round) });
          break;
        case 1:
          await add({
            role: 'user',
            content: [
              { type: 'text', text: `What is in this picture (${round})?` },
              { type: 'image_url', image_url: { url: imageUrl } },
            ],
          });
          await reply({ content: `A white circle on a blue ground (${round}).` });
          break;
        case 2:
          await add({ role: 'user', content: `Compare the providers (${round}).` });
          await reply({ content: tableReply(round) });
          break;
        case 3: {
          await add({ role: 'user', content: `please echo round-${round}` });
          const callId = `call_${round}`;
          await reply({
            content: null,
            toolCalls: [
              {
                id: callId,
                type: 'function',
                function: { name: 'everything__echo', arguments: JSON.stringify({ message: `round-${round}` }) },
                mcp: { server: 'everything', tool: 'echo' },
              },
            ],
          });
          const lines = Array.from({ length: 40 }, (_, line) => `line ${line} of the echo of round ${round}`);
          await add({ role: 'tool', toolCallId: callId, content: `Echo: round-${round}\n${lines.join('\n')}` });
          break;
        }
        case 4:
          await add({ role: 'user', content: `Try the other provider (${round}).` });
          await reply({
            content: null,
            status: 'error',
            error:
              'The request to the model failed: 429 rate limited by the upstream provider; try again in 20 seconds ' +
              'or choose another model.',
            usage: null,
            cost: null,
          });
          break;
        case 5: {
          await add({ role: 'user', content: `Read the file notes-${round}.txt` });
          const callId = `call_${round}`;
          await reply({
            content: 'I tried to read it:',
            toolCalls: [
              {
                id: callId,
                type: 'function',
                function: { name: 'everything__read', arguments: JSON.stringify({ path: `notes-${round}.txt` }) },
                mcp: { server: 'everything', tool: 'read' },
              },
            ],
          });
          await add({
            role: 'tool',
            toolCallId: callId,
            status: 'error',
            content: `Error: no such file notes-${round}.txt\n    at read (server.js:12)\n    at call (server.js:40)`,
            error: `Error: no such file notes-${round}.txt`,
          });
          break;
        }
        case 6:
          await add({ role: 'user', content: `Think about it carefully (${round}).\n\nTake your time.` });
          await reply({ content: `After some thought: **yes** (${round}).`, reasoning: 'First, consider the cases.' });
          break;
        default:
          await add({ role: 'user', content: `A long line: ${'word '.repeat(120)}` });
          await reply({
            content: `A long answer:\n\n${Array.from({ length: 8 }, (_, n) => `- point ${n}`).join('\n')}`,
          });
      }
    }
    await add({ role: 'user', content: 'Anything else?' });
    await reply({ content: longChatShape.newestText });
    return conversation;
  });
}
