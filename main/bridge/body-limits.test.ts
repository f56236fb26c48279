import { describe, expect, it } from 'vitest';
import { bridgeContract, type BridgeChannel } from '../../shared/bridge/contract.js';
import {
  maxBundleBytes,
  maxComparedModels,
  maxDocumentBytes,
  maxDocumentsPerMessage,
  maxImageBytes,
  maxImagesPerMessage,
  maxImportChars,
  maxMessageChars,
  maxPresetNameChars,
  maxResourcesPerMessage,
  maxStopSequenceChars,
  maxStopSequences,
  maxSystemPromptChars,
  maxTextFileChars,
  maxTextFilesPerMessage,
} from '../../shared/bridge/limits.js';
import { defaultInvokeBodyLimitBytes, invokeBodyLimit, maxInvokeBodyLimitBytes } from './body-limits.js';

/** Characters JSON writes as `\u0001`: six bytes each, the most a character can take. */
const worst = (count: number) => '\u0001'.repeat(count);

/** The longest image data URL the contract accepts, found rather than assumed. */
function longestImage(): string {
  const prefix = 'data:image/png;base64,';
  const schema = bridgeContract['chat:send'].request;
  const valid = (length: number) =>
    schema.safeParse({ conversationId: 'c', text: 'x', images: [prefix + 'A'.repeat(length - prefix.length)] }).success;
  let length = Math.ceil((maxImageBytes * 4) / 3);
  while (valid(length + 1)) length += 1;
  expect(valid(length)).toBe(true);
  return prefix + 'A'.repeat(length - prefix.length);
}

/** The longest PDF data URL the contract accepts. */
function longestDocument(): string {
  const prefix = 'data:application/pdf;base64,';
  const schema = bridgeContract['chat:send'].request;
  const valid = (length: number) =>
    schema.safeParse({
      conversationId: 'c',
      text: 'x',
      documents: [{ name: 'a.pdf', dataUrl: prefix + 'A'.repeat(length - prefix.length) }],
    }).success;
  let length = Math.ceil((maxDocumentBytes * 4) / 3);
  while (valid(length + 1)) length += 1;
  expect(valid(length)).toBe(true);
  return prefix + 'A'.repeat(length - prefix.length);
}

/** A bundle of the largest size as base64, and the most settings with the most and longest values. */
function largestBundleRequest() {
  const values = Object.fromEntries(
    Array.from({ length: 50 }, (_, index) => [`${index}`.padEnd(200, 'k'), Array<string>(10).fill(worst(2_000))]),
  );
  return { fileName: worst(255), data: 'A'.repeat(Math.ceil(maxBundleBytes / 3) * 4), values };
}

/** The largest request each channel accepts (for the channels whose requests can be large). */
const largest: Partial<Record<BridgeChannel, () => unknown>> = {
  'chat:send': () => ({
    conversationId: 'c'.repeat(100),
    text: worst(maxMessageChars),
    images: Array<string>(maxImagesPerMessage).fill(longestImage()),
    resources: Array.from({ length: maxResourcesPerMessage }, () => ({ server: worst(200), uri: worst(4_000) })),
    documents: Array.from({ length: maxDocumentsPerMessage }, () => ({ name: worst(255), dataUrl: longestDocument() })),
    textFiles: Array.from({ length: maxTextFilesPerMessage }, () => ({
      name: worst(255),
      text: worst(maxTextFileChars),
    })),
  }),
  'chat:edit-message': () => ({
    conversationId: 'c'.repeat(100),
    messageId: 'm'.repeat(100),
    text: worst(maxMessageChars),
  }),
  'chat:import-conversation': () => ({ text: worst(maxImportChars) }),
  'chat:compare': () => ({
    conversationId: 'c'.repeat(100),
    text: worst(maxMessageChars),
    models: Array.from({ length: maxComparedModels }, (_, index) => `p/${index}${'m'.repeat(297)}`),
  }),
  'mcp:save-settings': () => ({ text: worst(1_000_000), expectedText: worst(1_000_000) }),
  'mcp:import': () => ({ text: worst(1_000_000), fileName: worst(300), overwrite: true }),
  'chat:create-conversation': () => ({
    model: `p/${'m'.repeat(298)}`,
    systemPrompt: worst(maxSystemPromptChars),
    temperature: 1,
    stop: Array<string>(maxStopSequences).fill(worst(maxStopSequenceChars)),
  }),
  'chat:save-preset': () => ({
    id: 'p'.repeat(100),
    name: `x${worst(maxPresetNameChars - 1)}`,
    model: `p/${'m'.repeat(298)}`,
    systemPrompt: worst(maxSystemPromptChars),
    temperature: 1,
    maxTokens: 1,
    topP: 1,
    seed: Number.MIN_SAFE_INTEGER,
    stop: Array<string>(maxStopSequences).fill(worst(maxStopSequenceChars)),
    reasoningEffort: 'medium',
    isDefault: true,
  }),
  'keys:create': () => ({
    name: worst(100),
    allowed_models: Array.from({ length: 1_000 }, () => worst(300)),
    allowed_providers: Array.from({ length: 200 }, () => worst(64)),
  }),
  'providers:add': () => ({ id: 'p'.repeat(64), kind: 'openai', baseUrl: worst(2_000), apiKey: worst(8_192) }),
  'mcp:read-resource': () => ({ name: worst(200), uri: worst(4_000) }),
  'mcp:bundle-preview': () => largestBundleRequest(),
  'mcp:bundle-install': () => largestBundleRequest(),
  'mcp:get-prompt': () => ({
    name: worst(200),
    prompt: worst(200),
    arguments: Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`${index}${worst(190)}`, worst(10_000)])),
  }),
};

describe('the body limit of each bridge channel', () => {
  it.each(Object.entries(largest))('fits the largest request %s accepts', (channel, build) => {
    const request = build();
    expect(bridgeContract[channel as BridgeChannel].request.safeParse(request).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(request))).toBeLessThanOrEqual(invokeBodyLimit(channel));
  });

  it('keeps the large limit for the chat, and a small one for the rest and for unknown names', () => {
    expect(invokeBodyLimit('chat:send')).toBe(maxInvokeBodyLimitBytes);
    expect(invokeBodyLimit('app:info')).toBe(defaultInvokeBodyLimitBytes);
    expect(invokeBodyLimit('no:such-channel')).toBe(defaultInvokeBodyLimitBytes);
    expect(invokeBodyLimit('__proto__')).toBe(defaultInvokeBodyLimitBytes);
    expect(defaultInvokeBodyLimitBytes).toBeLessThanOrEqual(64 * 1024);
  });
});
