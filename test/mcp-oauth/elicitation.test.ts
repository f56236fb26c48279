// Elicitation: a server's question during a tool call reaches whoever started the call — the UI's prompts for
// the chat and the MCP screen, the hub's client for a call through the hub — and its answer goes back to the
// server. Against server-everything's trigger-elicitation-request, which it registers only for clients that
// declare the capability.

import type { ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager, toolResultText, type ElicitationPrompt } from '../../main/mcp/index.js';
import {
  connectHubClient,
  everythingEntry,
  makeTempDir,
  removeTempDir,
  silentLogger,
  testSearchPath,
  writeSettings,
} from '../../main/mcp/test-support.js';

let dataDir: string;
let manager: McpManager;

beforeAll(async () => {
  dataDir = await makeTempDir();
  await writeSettings(dataDir, { everything: everythingEntry() });
  manager = new McpManager({ dataDir, logger: silentLogger, watch: false, searchPath: testSearchPath });
  await manager.start();
  await manager.waitUntilSettled();
}, 60_000);

afterAll(async () => {
  await manager.stop();
  await removeTempDir(dataDir);
});

/** Answers every question with `answer` while subscribed; collects what was asked and what ended. */
function answering(answer: (prompt: ElicitationPrompt) => void) {
  const asked: ElicitationPrompt[] = [];
  const ended: string[] = [];
  const subscriptions = [
    manager.elicitations.onPrompt((prompt) => {
      asked.push(prompt);
      answer(prompt);
    }),
    manager.elicitations.onPromptEnded(({ id }) => ended.push(id)),
  ];
  return { asked, ended, dispose: () => subscriptions.forEach((subscription) => subscription.dispose()) };
}

describe('elicitation in Switchyard', { timeout: 30_000 }, () => {
  it('declares the capability, shows the question, and answers it with what the person filled in', async () => {
    expect(manager.listTools('everything').map((tool) => tool.name)).toContain('trigger-elicitation-request');
    const ui = answering((prompt) =>
      manager.elicitations.answer(prompt.id, {
        action: 'accept',
        content: { name: 'Ada Lovelace', check: true, integer: 7 },
      }),
    );
    try {
      const result = await manager.callTool('everything', 'trigger-elicitation-request');
      expect(toolResultText(result)).toContain('- Name: Ada Lovelace');
      expect(toolResultText(result)).toContain('- Favorite Integer: 7');
      expect(ui.asked).toEqual([
        expect.objectContaining({
          server: 'everything',
          message: 'Please provide inputs for the following fields:',
          requestedSchema: expect.objectContaining({ required: ['name'] }),
        }),
      ]);
      expect(ui.ended).toEqual([ui.asked[0]?.id]);
    } finally {
      ui.dispose();
    }
  });

  it("fills in the schema's defaults for the fields an accepted form left out", async () => {
    const ui = answering((prompt) =>
      manager.elicitations.answer(prompt.id, { action: 'accept', content: { name: 'Ada Lovelace', integer: 7 } }),
    );
    try {
      const text = toolResultText(await manager.callTool('everything', 'trigger-elicitation-request'));
      expect(text).toContain('- Favorite Integer: 7'); // given, kept
      expect(text).toContain('- Favorite Number: 3.14'); // left out: the default
      expect(text).toContain('"firstLine": "It was a dark and stormy night."');
      expect(text).not.toContain('"check"'); // left out, and no default
    } finally {
      ui.dispose();
    }
  });

  it('passes on a decline and a cancel', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const ui = answering((prompt) => manager.elicitations.answer(prompt.id, { action }));
      try {
        const result = await manager.callTool('everything', 'trigger-elicitation-request');
        expect(toolResultText(result)).toContain(`"action": "${action}"`);
      } finally {
        ui.dispose();
      }
    }
  });

  it('declines at once when no UI shows questions', async () => {
    const result = await manager.callTool('everything', 'trigger-elicitation-request');
    expect(toolResultText(result)).toContain('User declined');
    expect(manager.logs('everything').join('\n')).not.toContain('Declined a question'); // the prompts declined it
  });

  it('withdraws the question when its call is stopped', async () => {
    const stop = new AbortController();
    const ui = answering(() => stop.abort());
    try {
      const result = await manager.callTool('everything', 'trigger-elicitation-request', {}, { signal: stop.signal });
      expect(result.isError).toBe(true);
      expect(ui.asked).toHaveLength(1);
      expect(ui.ended).toEqual([ui.asked[0]?.id]);
      expect(manager.elicitations.answer(ui.asked[0]!.id, { action: 'decline' })).toBe(false);
    } finally {
      ui.dispose();
    }
  });
});

describe('elicitation through the hub', { timeout: 30_000 }, () => {
  const hubClient = (options: ClientOptions) => connectHubClient(manager, options);

  /**
   * The question tool's result (as JSON text) called by `hub`'s client, which is then closed; checks that
   * Switchyard's UI, listening all along (and accepting an empty form if asked), was never asked.
   */
  async function triggeredThroughHub(hub: Awaited<ReturnType<typeof hubClient>>): Promise<string> {
    const ui = answering((prompt) => manager.elicitations.answer(prompt.id, { action: 'accept', content: {} }));
    try {
      const result = await hub.client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
      expect(ui.asked).toEqual([]);
      return JSON.stringify(result.content);
    } finally {
      ui.dispose();
      await hub.close();
    }
  }

  it("asks the hub's client when it declared elicitation, never Switchyard's UI", async () => {
    const hub = await hubClient({ capabilities: { elicitation: { form: {} } } });
    hub.client.setRequestHandler(ElicitRequestSchema, (request) => {
      expect(request.params.message).toBe('Please provide inputs for the following fields:');
      return { action: 'accept', content: { name: 'Grace Hopper' } };
    });
    expect(await triggeredThroughHub(hub)).toContain('- Name: Grace Hopper');
  });

  it('declines for a hub client without the capability', async () => {
    expect(await triggeredThroughHub(await hubClient({ capabilities: {} }))).toContain('User declined');
  });
});
