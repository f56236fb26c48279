// A PDF and a text file sent from the chat reach Anthropic and Gemini upstreams in their own shapes (a document
// block, inline data), through the gateway's translations, as they reach an OpenAI-compatible one as a file part.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as anthropic from '../support/fake-anthropic.js';
import * as gemini from '../support/fake-gemini.js';
import { waitFor } from '../support/wait-for.js';
import { useChatTestApp } from './chat-test-app.js';

const pdfBase64 = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
const documents = [{ name: 'report.pdf', dataUrl: `data:application/pdf;base64,${pdfBase64}` }];
const textFiles = [{ name: 'notes.md', text: 'Ship on Friday.' }];
const notesPart = 'Attached file notes.md:\n\n```md\nShip on Friday.\n```';

const env = useChatTestApp();
let claude: anthropic.FakeAnthropic;
let google: gemini.FakeGemini;

beforeAll(async () => {
  claude = new anthropic.FakeAnthropic({
    models: ['claude-sonnet-4-5'],
    fallback: anthropic.answer({ stream: 'anthropic-text.sse.txt' }),
  });
  google = new gemini.FakeGemini({
    models: ['gemini-2.5-flash'],
    fallback: gemini.answer({ stream: 'gemini-text.sse.txt' }),
  });
  const providers = env.app.providers;
  await providers.add({
    id: 'claude',
    kind: 'anthropic',
    baseUrl: await claude.start(),
    apiKey: anthropic.anthropicKey,
  });
  await providers.add({ id: 'gemini', kind: 'google', baseUrl: await google.start(), apiKey: gemini.geminiKey });
});

afterAll(async () => {
  await claude?.close();
  await google?.close();
});

async function sendWithFiles(model: string) {
  const conversation = await env.app.chat.createConversation({ model });
  await env.app.chat.send(conversation.id, 'Summarise', [], [], { documents, textFiles });
  await waitFor(async () => !(await env.app.chat.getConversation(conversation.id)).running, {
    what: 'the end of the turn',
  });
  return (await env.app.chat.getConversation(conversation.id)).messages;
}

describe('files from the chat at each provider kind', () => {
  it('reach Claude as text blocks and a PDF document block', async () => {
    const messages = await sendWithFiles('claude/claude-sonnet-4-5');
    expect(messages[1]).toMatchObject({ role: 'assistant', status: 'complete' });
    const body = claude.messageRequests().at(-1)?.body as { messages: { content: unknown[] }[] };
    expect(body.messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'Summarise' },
      { type: 'text', text: notesPart },
      expect.objectContaining({
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: pdfBase64 },
      }),
    ]);
  });

  it('reach Gemini as text parts and the PDF as inline data', async () => {
    const messages = await sendWithFiles('gemini/gemini-2.5-flash');
    expect(messages[1]).toMatchObject({ role: 'assistant', status: 'complete' });
    const body = google.generateRequests().at(-1)?.body as { contents: { parts: unknown[] }[] };
    expect(body.contents.at(-1)?.parts).toEqual([
      { text: 'Summarise' },
      { text: notesPart },
      { inlineData: { mimeType: 'application/pdf', data: pdfBase64 } },
    ]);
  });
});
