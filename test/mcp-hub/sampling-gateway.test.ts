// Switchyard's own answer to a server's sampling request: the real app (gateway over HTTP, the SQLite store, the
// bridge the UI uses), server-everything and the sampling fixture behind the hub, and a fake OpenAI-compatible
// upstream on 127.0.0.1 as the chosen model. The hub's client does not sample, so Switchyard answers — with the
// approval each server's settings give.

import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { McpSamplingApproval } from '../../shared/bridge/types.js';
import { createApp, type App } from '../../main/app/index.js';
import { createBridgeHandlers, type BridgeHandlers } from '../../main/bridge/index.js';
import { toolResultText, userRejectedCode } from '../../main/mcp/index.js';
import { connectHubClient, everythingEntry, samplingEntry } from '../../main/mcp/test-support.js';
import { prepareDataDir } from '../chat/chat-test-app.js';
import { defaultAnswer, startScriptedUpstream, type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { closeInTurn, useHarness } from '../support/use-harness.js';
import { waitFor } from '../support/wait-for.js';

const silent = pino({ level: 'silent' });
const chosenModel = 'fake/scripted-1';

interface Harness {
  app: App;
  upstream: ScriptedUpstream;
  bridge: BridgeHandlers;
  /** What the bridge told the UI to ask, and which prompts it withdrew. */
  asked: McpSamplingApproval[];
  ended: string[];
  client: Client;
  close(): Promise<void>;
}

const env = useHarness(async (): Promise<Harness> => {
  const upstream = await startScriptedUpstream();
  const dataDir = await prepareDataDir(upstream);
  const mcpServers = {
    everything: everythingEntry({ sampling: { model: chosenModel, approval: 'always' } }),
    always: samplingEntry({ sampling: { model: chosenModel, approval: 'always' } }),
    asking: samplingEntry({ sampling: { model: chosenModel } }),
  };
  fs.writeFileSync(path.join(dataDir, 'mcp_settings.json'), JSON.stringify({ mcpServers }, null, 2));
  const app = createApp({ dataDir, secretStoreMode: 'file', localProviders: false, env: {}, logger: silent });
  const gateway = app.createGateway();
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  await app.mcp.start();
  const servers = await app.mcp.waitUntilSettled();
  if (servers.some((server) => server.state !== 'connected')) throw new Error(JSON.stringify(servers));

  const bridge = createBridgeHandlers(app, { appInfo: () => ({ version: '0.0.0', gatewayUrl: null }) });
  const asked: McpSamplingApproval[] = [];
  const ended: string[] = [];
  const unsubscribe = bridge.events.subscribe((event) => {
    if (event.name === 'mcp:sampling') asked.push(event.payload as McpSamplingApproval);
    if (event.name === 'mcp:sampling-ended') ended.push((event.payload as { id: string }).id);
  });

  // A hub client that does not declare sampling: Switchyard answers for it.
  const hub = await connectHubClient(app.mcp, { capabilities: {} });

  return {
    app,
    upstream,
    bridge,
    asked,
    ended,
    client: hub.client,
    async close() {
      await hub.close();
      unsubscribe.dispose();
      bridge.dispose();
      await closeInTurn([app, upstream], dataDir);
    },
  };
});

/** The fixture's `sample` of `server` through the hub: the result it got, or the JSON-RPC error. */
async function sample(server: string, params: unknown) {
  const result = await env().client.callTool({ name: `${server}__sample`, arguments: { params } });
  return JSON.parse(toolResultText(result as Parameters<typeof toolResultText>[0])) as {
    result?: { role: string; content: { type: string; text?: string }; model: string; stopReason?: string };
    error?: { code: number; message: string };
  };
}

const hello = { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }], maxTokens: 40 };
const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe("sampling answered by Switchyard's chosen model", { timeout: 30_000 }, () => {
  it('answers through the gateway and counts the call in usage under the server’s name', async () => {
    const before = env().upstream.chatRequests().length;
    const result = await env().client.callTool({
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'a haiku', maxTokens: 42 },
    });
    const text = toolResultText(result as Parameters<typeof toolResultText>[0]);
    expect(result.isError).toBeFalsy();
    expect(text).toContain('LLM sampling result:');
    const answered = JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>;
    expect(answered).toEqual({
      role: 'assistant',
      content: { type: 'text', text: defaultAnswer },
      model: chosenModel,
      stopReason: 'endTurn',
    });

    // The upstream got the request as a chat completion: the system prompt first, the limits as sent.
    const requests = env().upstream.chatRequests().slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body).toMatchObject({
      model: 'scripted-1',
      messages: [
        { role: 'system', content: 'You are a helpful test server.' },
        { role: 'user', content: 'Resource trigger-sampling-request context: a haiku' },
      ],
      max_tokens: 42,
      temperature: 0.7,
    });

    // One usage row in the real store, under the server's name, with the upstream's tokens.
    await env().app.usage.flush();
    const rows = (await env().app.store.listUsage()).filter((row) => row.app_title === 'everything (MCP sampling)');
    expect(rows).toEqual([
      expect.objectContaining({ model: chosenModel, prompt_tokens: 20, completion_tokens: 10, status: 200 }),
    ]);
  });

  it('answers the same way during a call of Switchyard’s own (the chat’s tool calls, the MCP screen)', async () => {
    const result = await env().app.mcp.callTool('everything', 'trigger-sampling-request', { prompt: 'chat' });
    expect(result.isError).toBe(false);
    expect(toolResultText(result)).toContain('"model": "fake/scripted-1"');
  });

  it('sends images to the model, and lets a hint pick a configured model that matches', async () => {
    const before = env().upstream.chatRequests().length;
    const { result } = await sample('always', {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image', data: tinyPng, mimeType: 'image/png' },
          ],
        },
      ],
      maxTokens: 30,
      stopSequences: ['\n\n\n'],
      modelPreferences: { hints: [{ name: 'no-such-model' }, { name: 'VISION' }] },
    });
    expect(result).toMatchObject({ role: 'assistant', model: 'fake/scripted-vision', content: { type: 'text' } });
    const [request] = env().upstream.chatRequests().slice(before);
    expect(request?.body).toMatchObject({
      model: 'scripted-vision',
      max_tokens: 30,
      stop: ['\n\n\n'],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${tinyPng}` } },
          ],
        },
      ],
    });
    // A hint that matches nothing leaves the chosen model.
    expect((await sample('always', { ...hello, modelPreferences: { hints: [{ name: 'nope' }] } })).result?.model).toBe(
      chosenModel,
    );
  });

  it('answers what a chat completion cannot carry with InvalidParams, before any model is called', async () => {
    const before = env().upstream.chatRequests().length;
    const tooHot = await sample('always', { ...hello, temperature: 7 });
    expect(tooHot.error?.code).toBe(ErrorCode.InvalidParams);
    expect(tooHot.error?.message).toContain('temperature');
    const assistantImage = await sample('always', {
      messages: [{ role: 'assistant', content: { type: 'image', data: tinyPng, mimeType: 'image/png' } }],
      maxTokens: 10,
    });
    expect(assistantImage.error).toEqual({
      code: ErrorCode.InvalidParams,
      message: 'MCP error -32602: messages[0]: only user messages may carry images or audio.',
    });
    expect(env().upstream.chatRequests().length).toBe(before);
  });
});

describe('approval "ask": the person decides in Switchyard’s window', { timeout: 30_000 }, () => {
  async function askedFor(answer: 'approve' | 'decline') {
    const before = env().asked.length;
    const sampled = sample('asking', { ...hello, systemPrompt: 'Be brief.' });
    const prompt = await waitFor(() => env().asked[before], { what: 'the sampling prompt' });
    expect(prompt).toEqual({
      id: expect.any(String),
      server: 'asking',
      model: chosenModel,
      systemPrompt: 'Be brief.',
      messages: [{ role: 'user', text: 'Say hello.' }],
      maxTokens: 40,
    });
    const decided = await env().bridge.invoke('mcp:answer-sampling', { id: prompt.id, action: answer });
    expect(decided).toEqual({ ok: true, value: { answered: true } });
    const outcome = await sampled;
    expect(env().ended).toContain(prompt.id);
    return outcome;
  }

  it('calls the model once the person approves', async () => {
    const { result } = await askedFor('approve');
    expect(result).toMatchObject({ model: chosenModel, content: { type: 'text', text: defaultAnswer } });
  });

  it('answers a decline with the specification’s user rejection (-1)', async () => {
    const before = env().upstream.chatRequests().length;
    const { error } = await askedFor('decline');
    expect(error).toEqual({ code: userRejectedCode, message: 'MCP error -1: User rejected sampling request' });
    expect(env().upstream.chatRequests().length).toBe(before);
  });

  it('refuses an answer to a prompt that no longer stands, and a malformed answer', async () => {
    expect(await env().bridge.invoke('mcp:answer-sampling', { id: 'gone', action: 'approve' })).toEqual({
      ok: true,
      value: { answered: false },
    });
    const malformed = await env().bridge.invoke('mcp:answer-sampling', { id: 'x', action: 'maybe' });
    expect(malformed.ok).toBe(false);
  });
});
