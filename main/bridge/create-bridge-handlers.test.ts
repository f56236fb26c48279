import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { bridgeChannelNames, bridgeEventNames, bridgeNamePattern } from '../../shared/bridge/contract.js';
import type { ChatEvent } from '../../shared/bridge/types.js';
import { Emitter } from '../../shared/events/index.js';
import { ChatError } from '../chat/index.js';
import { createBridgeHandlers, type BridgeApp } from './create-bridge-handlers.js';

function fakeApp(chat: Partial<BridgeApp['chat']> = {}) {
  const chatEvents = new Emitter<ChatEvent>();
  const nothing = new Emitter<never>();
  const app = {
    logger: pino({ level: 'silent' }),
    registry: {
      listModels: async () => [
        {
          id: 'p/vision-x',
          name: 'Vision X',
          architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
        },
      ],
    },
    mcp: {
      list: () => [],
      onServerStatus: nothing.event,
      onServersChanged: nothing.event,
      elicitations: { onPrompt: nothing.event, onPromptEnded: nothing.event },
      samplingApprovals: { onPrompt: nothing.event, onPromptEnded: nothing.event },
    },
    usage: { onRecord: nothing.event },
    accounts: {
      prices: {
        priceOf: () => ({
          model: 'vision-x',
          source: 'builtin',
          input: 1,
          output: 2,
          cache_read: null,
          cache_write: null,
        }),
      },
    },
    chat: { onEvent: chatEvents.event, onConversationsChanged: nothing.event, ...chat },
    chatCompare: { onEvent: nothing.event },
  } as unknown as BridgeApp;
  return { app, emitChat: (event: ChatEvent) => chatEvents.fire(event) };
}

const appInfo = () => ({ version: '1.2.3', gatewayUrl: 'http://127.0.0.1:1/api/v1' });

describe('createBridgeHandlers', () => {
  it('has a handler for every channel of the contract', () => {
    const bridge = createBridgeHandlers(fakeApp().app, { appInfo });
    expect([...bridge.channels].sort()).toEqual([...bridgeChannelNames].sort());
  });

  it('answers a valid call, and lists models with what they can do and their price', async () => {
    const bridge = createBridgeHandlers(fakeApp().app, { appInfo });
    expect(await bridge.invoke('app:info', undefined)).toEqual({ ok: true, value: appInfo() });
    expect(await bridge.invoke('models:list', {})).toEqual({
      ok: true,
      value: {
        models: [
          {
            id: 'p/vision-x',
            name: 'Vision X',
            provider: 'p',
            acceptsImages: true,
            acceptsPdfs: false,
            callsTools: false,
            reasons: false,
            contextLength: null,
            price: { input: 1, output: 2 },
          },
        ],
      },
    });
  });

  it('refuses unknown channels and invalid requests without calling a handler', async () => {
    let called = false;
    const { app } = fakeApp({ send: async () => ((called = true), {}) as never });
    const bridge = createBridgeHandlers(app, { appInfo });
    expect(await bridge.invoke('chat:nope', {})).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(await bridge.invoke('__proto__', {})).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    const invalid = await bridge.invoke('chat:send', {
      conversationId: 'c',
      text: '',
      images: ['data:text/html;base64,x'],
    });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(!invalid.ok && invalid.error.message).toMatch(/images\.0: must be a base64 data URL/);
    expect(await bridge.invoke('chat:get-conversation', { id: 'c', extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', message: expect.stringContaining('extra') },
    });
    expect(called).toBe(false);
  });

  it('passes the chat’s own error codes on, and hides unexpected errors behind a generic message', async () => {
    const { app } = fakeApp({
      getConversation: () => {
        throw new ChatError('not-found', 'There is no conversation "c".');
      },
      stop: async () => {
        throw new Error('secret internals');
      },
    });
    const bridge = createBridgeHandlers(app, { appInfo });
    expect(await bridge.invoke('chat:get-conversation', { id: 'c' })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'There is no conversation "c".' },
    });
    const failed = await bridge.invoke('chat:stop', { conversationId: 'c' });
    expect(failed).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(failed)).not.toContain('secret internals');
  });

  it('forwards chat events to the hub, numbered, until disposed', () => {
    const { app, emitChat } = fakeApp();
    const bridge = createBridgeHandlers(app, { appInfo });
    const seen: unknown[] = [];
    bridge.events.subscribe((event) => seen.push(event));
    emitChat({ type: 'turn-start', conversationId: 'c' });
    expect(seen).toEqual([{ id: 1, name: 'chat:event', payload: { type: 'turn-start', conversationId: 'c' } }]);
    bridge.dispose();
    emitChat({ type: 'turn-start', conversationId: 'd' });
    expect(seen).toHaveLength(1);
  });
});

describe('the contract’s names', () => {
  it('all have the `area:verb` shape the preload checks, with the same pattern as the preload', () => {
    for (const name of [...bridgeChannelNames, ...bridgeEventNames]) expect(name).toMatch(bridgeNamePattern);
    const preload = fs.readFileSync(path.join(import.meta.dirname, '../../preload/index.cts'), 'utf8');
    const literal = /const bridgeNamePattern = \/(.+)\/;/.exec(preload)?.[1];
    expect(literal).toBe(bridgeNamePattern.source);
  });
});
