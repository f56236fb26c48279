// Sampling through the hub and Switchyard's refusals, with the MCP SDK's Client as the hub's client and real
// servers behind it: server-everything's trigger-sampling-request (registered only for clients that declare
// sampling, as Switchyard now does) and the sampling fixture, which sends whatever params it is given and reports
// the JSON-RPC error it gets back. The answers of Switchyard's own model are sampling-gateway.test.ts.

import type { ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ErrorCode, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SamplingError, toolResultText, userRejectedCode, type McpManager } from '../../main/mcp/index.js';
import {
  connectHubClient,
  createTestManager,
  everythingEntry,
  samplingEntry,
  writeSettings,
  type Cleanups,
} from '../../main/mcp/test-support.js';

const samplingTool = 'everything__trigger-sampling-request';
const servers = {
  everything: everythingEntry({ sampling: { model: 'fake/never-called', approval: 'never' } }),
  unchosen: samplingEntry(),
  never: samplingEntry({ sampling: { model: 'fake/never-called', approval: 'never' } }),
  asking: samplingEntry({ sampling: { model: 'fake/never-called' } }),
};

const cleanups: Cleanups = [];
let manager: McpManager;

beforeAll(async () => {
  ({ manager } = await createTestManager(cleanups));
  await writeSettings(manager.settingsPath.replace(/\/mcp_settings\.json$/, ''), servers);
  await manager.start();
  const settled = await manager.waitUntilSettled();
  expect(settled.map((server) => server.state)).toEqual(['connected', 'connected', 'connected', 'connected']);
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hubClient(options: ClientOptions) {
  const { client, close } = await connectHubClient(manager, options);
  cleanups.push(close);
  return client;
}

/** The fixture's `sample` of `server`, called through a hub client without sampling: what came back. */
async function sampleThroughHub(server: string, params: unknown) {
  const client = await hubClient({ capabilities: {} });
  const result = await client.callTool({ name: `${server}__sample`, arguments: { params } });
  return JSON.parse(toolResultText(result as Parameters<typeof toolResultText>[0])) as {
    result?: unknown;
    error?: { code: number; message: string };
  };
}

const validParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
  maxTokens: 50,
};

describe('sampling through the hub', { timeout: 30_000 }, () => {
  it("relays a server's request to a hub client that declared sampling, and its answer to the tool", async () => {
    expect(manager.listTools('everything').map((tool) => tool.name)).toContain('trigger-sampling-request');
    const client = await hubClient({ capabilities: { sampling: {} } });
    const received: CreateMessageRequest['params'][] = [];
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      received.push(request.params);
      return {
        role: 'assistant',
        content: { type: 'text', text: 'Hello from the hub client.' },
        model: 'client-model-1',
        stopReason: 'endTurn',
      };
    });
    const result = await client.callTool({ name: samplingTool, arguments: { prompt: 'a haiku', maxTokens: 33 } });
    const text = JSON.stringify(result.content);
    expect(text).toContain('Hello from the hub client.');
    expect(text).toContain('client-model-1');
    // The relay went to the client although the server's own setting is "never": that setting is about
    // Switchyard's model, and this client answers with its own.
    expect(received).toEqual([
      expect.objectContaining({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Resource trigger-sampling-request context: a haiku' } },
        ],
        systemPrompt: 'You are a helpful test server.',
        maxTokens: 33,
        temperature: 0.7,
      }),
    ]);
  });

  it('passes on the hub client’s refusal as the JSON-RPC error it sent', async () => {
    const client = await hubClient({ capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, () => {
      // On the wire: {"code": -1, "message": "User rejected sampling request"}, the specification's example.
      throw new SamplingError(userRejectedCode, 'User rejected sampling request');
    });
    const result = await client.callTool({ name: 'asking__sample', arguments: { params: validParams } });
    // The server's SDK puts "MCP error -1: " before the message it received; the hub added nothing.
    expect(JSON.parse(toolResultText(result as Parameters<typeof toolResultText>[0]))).toEqual({
      error: { code: userRejectedCode, message: 'MCP error -1: User rejected sampling request' },
    });
  });
});

describe("Switchyard's refusals", { timeout: 30_000 }, () => {
  it('refuses with InvalidRequest when the approval is "never", saying where to change it', async () => {
    const { error } = await sampleThroughHub('never', validParams);
    expect(error?.code).toBe(ErrorCode.InvalidRequest);
    expect(error?.message).toContain('Sampling is switched off for the MCP server "never" (approval "never"');
    expect(error?.message).toContain('MCP screen');
  });

  it('refuses when no model is chosen, saying where to choose one', async () => {
    const { error } = await sampleThroughHub('unchosen', validParams);
    expect(error?.code).toBe(ErrorCode.InvalidRequest);
    expect(error?.message).toContain('No model is chosen to answer sampling requests of the MCP server "unchosen"');
    expect(error?.message).toContain('"sampling" in mcp_settings.json');
  });

  it('declines an "ask" request with -1 when no Switchyard window can ask', async () => {
    const { error } = await sampleThroughHub('asking', validParams);
    expect(error?.code).toBe(userRejectedCode);
    expect(error?.message).toContain('there is no Switchyard window here to ask in');
  });

  it('answers malformed params with InvalidParams, and the server stays connected', async () => {
    for (const params of [{ messages: 'hello', maxTokens: 10 }, { messages: validParams.messages }]) {
      const { error } = await sampleThroughHub('asking', params);
      expect({ params, error }).toEqual({ params, error: expect.objectContaining({ code: ErrorCode.InvalidParams }) });
      expect(error?.message).toContain('Invalid sampling request');
    }
    expect(manager.server('asking')?.state).toBe('connected');
  });

  it("refuses the same way for a call of Switchyard's own (the chat, the MCP screen)", async () => {
    const result = await manager.callTool('everything', 'trigger-sampling-request', { prompt: 'hi' });
    expect(result.isError).toBe(true);
    expect(toolResultText(result)).toContain('Sampling is switched off for the MCP server "everything"');
  });
});
