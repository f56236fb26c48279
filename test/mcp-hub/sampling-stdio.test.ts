// Sampling through `switchyard mcp serve`, the hub over stdio as Claude Desktop launches it (a client that does not
// sample): a real CLI process, which runs no gateway until a server's sampling request needs one, server-everything
// and the sampling fixture behind it, and a fake OpenAI-compatible upstream. "always" is answered by the chosen
// model and counted in the data folder's usage log; "ask" is declined, there being no window to ask in.

import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { toolResultText, userRejectedCode } from '../../main/mcp/index.js';
import { everythingEntry, samplingEntry } from '../../main/mcp/test-support.js';
import { prepareDataDir } from '../chat/chat-test-app.js';
import { defaultAnswer, startScriptedUpstream } from '../chat/scripted-upstream.js';
import { withSeedApp } from '../browser/seed.js';
import { cliInvocation } from '../support/cli.js';
import { waitFor } from '../support/wait-for.js';

type ToolResult = Parameters<typeof toolResultText>[0];

describe('sampling through switchyard mcp serve', () => {
  it('answers "always" with the chosen model and declines "ask" without a window', async () => {
    const upstream = await startScriptedUpstream();
    const dataDir = await prepareDataDir(upstream);
    const mcpServers = {
      everything: everythingEntry({ sampling: { model: 'fake/scripted-1', approval: 'always' } }),
      asking: samplingEntry({ sampling: { model: 'fake/scripted-1', approval: 'ask' } }),
    };
    fs.writeFileSync(path.join(dataDir, 'mcp_settings.json'), JSON.stringify({ mcpServers }));
    const invocation = cliInvocation(['mcp', 'serve', '--data-dir', dataDir], { SWITCHYARD_SECRET_STORE: 'file' });
    const client = new Client({ name: 'stdio-sampling-test', version: '1.0.0' }, { capabilities: {} });
    try {
      await client.connect(new StdioClientTransport({ ...invocation, stderr: 'pipe' }));
      const answered = (await client.callTool({
        name: 'everything__trigger-sampling-request',
        arguments: { prompt: 'over stdio', maxTokens: 20 },
      })) as ToolResult;
      expect(answered.isError).toBeFalsy();
      expect(toolResultText(answered)).toContain(JSON.stringify(defaultAnswer));
      expect(upstream.chatRequests().at(-1)?.body).toMatchObject({ model: 'scripted-1', max_tokens: 20 });

      const declined = (await client.callTool({
        name: 'asking__sample',
        arguments: { params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 } },
      })) as ToolResult;
      const { error } = JSON.parse(toolResultText(declined)) as { error: { code: number; message: string } };
      expect(error.code).toBe(userRejectedCode);
      expect(error.message).toContain('there is no Switchyard window here to ask in');
    } finally {
      await client.close();
    }

    // The process wrote its usage row to the data folder's store as it closed.
    try {
      const rows = await withSeedApp(dataDir, (app) =>
        waitFor(
          async () => {
            const found = (await app.store.listUsage()).filter((row) => row.app_title === 'everything (MCP sampling)');
            return found.length > 0 ? found : undefined;
          },
          { what: 'the sampling usage row' },
        ),
      );
      expect(rows).toEqual([
        expect.objectContaining({ model: 'fake/scripted-1', prompt_tokens: 20, completion_tokens: 10 }),
      ]);
    } finally {
      await upstream.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
