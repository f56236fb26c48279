// A server's sampling request during the chat's own tool call: the same policy as anywhere (main/mcp/sampling.ts),
// through the real app, server-everything's trigger-sampling-request and the scripted upstream, which both calls
// the tool and answers the server's request.

import { describe, expect, it } from 'vitest';
import { defaultAnswer } from './scripted-upstream.js';
import { everythingSettings, useChatBridge } from './chat-test-app.js';

const chat = useChatBridge();

async function sampleInChat() {
  const { conversation } = await chat.call('chat:create-conversation', { model: 'fake/scripted-1' });
  await chat.andTurn(conversation.id, async () => {
    await chat.call('chat:send', { conversationId: conversation.id, text: 'please have the server sample' });
    await chat.approveOnce(conversation.id);
  });
  // What the tool answered, as the chat keeps it (and sends it to the model): failures start "Error:".
  return String(chat.eventsOf(conversation.id, 'tool-result')[0]?.message.content);
}

describe('sampling during a chat tool call', { timeout: 30_000 }, () => {
  it('is refused while no model is chosen, and answered by the chosen model once one is', async () => {
    const refused = await sampleInChat();
    expect(refused).toMatch(/^Error: /);
    expect(refused).toContain('No model is chosen to answer sampling requests of the MCP server "everything"');

    const entry = everythingSettings().mcpServers.everything;
    await chat.env.app.mcp.saveServer(
      'everything',
      { ...entry, sampling: { model: 'fake/scripted-1', approval: 'always' } },
      'everything',
    );
    const answered = await sampleInChat();
    expect(answered).toContain('LLM sampling result:');
    expect(answered).toContain(JSON.stringify(defaultAnswer));

    await chat.env.app.usage.flush();
    const rows = await chat.env.app.store.listUsage();
    expect(rows.filter((row) => row.app_title === 'everything (MCP sampling)')).toHaveLength(1);
    expect(rows.filter((row) => row.app_title === 'Switchyard Chat').length).toBeGreaterThanOrEqual(4);
  });
});
