// Comparing models through the real app and gateway, with two fake upstreams of different speeds and prices: the
// same conversation reaches both, each column's answer comes with its usage, cost (or none: "unpriced") and
// timings, the requests are logged under the chat's key, a column can be stopped alone, and picking an answer makes
// it the conversation's reply and its model the conversation's model.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeContract } from '../../shared/bridge/contract.js';
import type { CompareAnswer, CompareEvent } from '../../shared/bridge/types.js';
import { answer, cut, FakeOpenAI } from '../support/fake-openai.js';
import { waitFor } from '../support/wait-for.js';
import { defaultAnswer } from './scripted-upstream.js';
import { useChatTestApp } from './chat-test-app.js';

const slowText = 'A slower, dearer and more careful answer.';
const slowFirstChunkMs = 300;

const env = useChatTestApp();
let slow: FakeOpenAI;
const events: CompareEvent[] = [];

beforeAll(async () => {
  slow = new FakeOpenAI({
    models: ['careful-1'],
    fallback: (request) => {
      const last = JSON.stringify(request.body?.messages ?? []);
      const endless = last.includes('never ending');
      return answer(
        { content: endless ? Array.from({ length: 400 }, (_, index) => `word${index} `) : cut(slowText, 6) },
        {
          form: 'stream',
          usageUnasked: true,
          usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42, cost: 0.003 },
          firstChunkAfterMs: slowFirstChunkMs,
          chunkDelayMs: endless ? 100 : 20,
        },
      )(request);
    },
  });
  await slow.start();
  await env.app.providers.add({ id: 'careful', kind: 'openai', baseUrl: slow.baseUrl, apiKey: 'sk-careful-test' });
  env.app.chatCompare.onEvent((event) => events.push(event));
});

afterAll(async () => {
  await slow?.close();
});

function finished(compareId: string): Map<number, CompareAnswer> {
  const answers = new Map<number, CompareAnswer>();
  for (const event of events) {
    if (event.type === 'column-finish' && event.compareId === compareId) answers.set(event.column, event.answer);
  }
  return answers;
}

async function compareFinished(compareId: string) {
  await waitFor(() => events.some((event) => event.type === 'compare-finish' && event.compareId === compareId), {
    what: 'the end of the comparison',
    timeoutMs: 20_000,
  });
  return finished(compareId);
}

async function conversationWithHistory() {
  const conversation = await env.app.chat.createConversation({ model: 'fake/scripted-1' });
  await env.app.chat.send(conversation.id, 'Hello there');
  await waitFor(async () => !(await env.app.chat.getConversation(conversation.id)).running, {
    what: 'the end of the first turn',
  });
  return conversation;
}

describe('comparing models', () => {
  it('sends one prompt to both models after the same history and measures each answer', async () => {
    const conversation = await conversationWithHistory();
    await env.app.chat.updateConversation(conversation.id, { temperature: 0.3, maxTokens: 77, seed: 5, stop: ['END'] });
    const fastBefore = env.upstream.chatRequests().length;
    const slowBefore = slow.chatRequests().length;
    const { compareId } = await env.app.chatCompare.start(conversation.id, 'Which is better, and unpriced?', [
      'fake/scripted-1',
      'careful/careful-1',
    ]);
    const answers = await compareFinished(compareId);

    const fastRequest = env.upstream.chatRequests().slice(fastBefore)[0]!.body!;
    const slowRequest = slow.chatRequests().slice(slowBefore)[0]!.body as typeof fastRequest;
    expect(fastRequest.model).toBe('scripted-1');
    expect(slowRequest.model).toBe('careful-1');
    expect(slowRequest.messages).toEqual(fastRequest.messages);
    // The conversation's settings go with every column, as with its own replies.
    for (const request of [fastRequest, slowRequest]) {
      expect(request).toMatchObject({ temperature: 0.3, max_tokens: 77, seed: 5, stop: ['END'] });
    }
    expect(fastRequest.messages?.map((message) => [message.role, message.content])).toEqual([
      ['user', 'Hello there'],
      ['assistant', defaultAnswer],
      ['user', 'Which is better, and unpriced?'],
    ]);
    expect(fastRequest.tools).toBeUndefined();

    const fast = answers.get(0)!;
    const careful = answers.get(1)!;
    // The scripted upstream reports no cost for an "unpriced" prompt and the model has no price: unknown, not $0.
    expect(fast).toMatchObject({ model: 'fake/scripted-1', status: 'complete', text: defaultAnswer, cost: null });
    expect(fast.usage?.prompt_tokens).toBe(20);
    expect(careful).toMatchObject({ model: 'careful/careful-1', status: 'complete', text: slowText, cost: 0.003 });
    expect(careful.usage?.completion_tokens).toBe(12);
    // The slow upstream waits before its first chunk: its first token comes later, and no earlier than that wait.
    expect(careful.firstTokenMs!).toBeGreaterThanOrEqual(slowFirstChunkMs);
    expect(careful.firstTokenMs!).toBeGreaterThan(fast.firstTokenMs!);
    for (const each of [fast, careful]) expect(each.totalMs!).toBeGreaterThanOrEqual(each.firstTokenMs!);
    const deltas = events.filter((event) => event.type === 'column-delta' && event.compareId === compareId);
    expect(new Set(deltas.map((event) => (event.type === 'column-delta' ? event.column : -1)))).toEqual(
      new Set([0, 1]),
    );

    // Nothing was stored yet; both requests were logged under the chat's key.
    expect((await env.app.chat.getConversation(conversation.id)).messages).toHaveLength(2);
    await env.app.usage.flush();
    const rows = (await env.app.store.listUsage()).filter((row) => row.model === 'careful/careful-1');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.app_title === 'Switchyard Chat')).toBe(true);

    // Picking the careful answer: it becomes the reply, its model the conversation's, and the chat goes on with it.
    const picked = await env.app.chatCompare.pick(compareId, 1);
    expect(picked.conversation.model).toBe('careful/careful-1');
    const detail = await env.app.chat.getConversation(conversation.id);
    expect(detail.conversation.model).toBe('careful/careful-1');
    expect(detail.messages.slice(2).map((m) => [m.role, m.content, m.model, m.cost])).toEqual([
      ['user', 'Which is better, and unpriced?', null, null],
      ['assistant', slowText, 'careful/careful-1', 0.003],
    ]);
    const nextBefore = slow.chatRequests().length;
    await env.app.chat.send(conversation.id, 'Go on');
    await waitFor(async () => !(await env.app.chat.getConversation(conversation.id)).running, {
      what: 'the turn after the pick',
    });
    const next = slow.chatRequests().slice(nextBefore)[0]!.body as typeof fastRequest;
    // The pair continues the conversation: the whole history goes, not only what was picked.
    expect(next.messages?.map((message) => message.content)).toEqual([
      'Hello there',
      defaultAnswer,
      'Which is better, and unpriced?',
      slowText,
      'Go on',
    ]);
    await expect(env.app.chatCompare.pick(compareId, 0)).rejects.toThrow('This comparison is over');
  });

  it('stops one column while the other goes on, then all; a stopped answer can still be picked', async () => {
    const conversation = await env.app.chat.createConversation({ model: 'fake/scripted-1' });
    const { compareId } = await env.app.chatCompare.start(conversation.id, 'A slow and never ending story', [
      'careful/careful-1',
      'fake/scripted-1',
    ]);
    await waitFor(() => events.some((e) => e.type === 'column-delta' && e.compareId === compareId && e.column === 0), {
      what: 'the first words of the careful answer',
    });
    await expect(env.app.chatCompare.pick(compareId, 0)).rejects.toThrow('still being written');
    // A screen opening the conversation now gets the answers so far.
    const snapshot = env.app.chatCompare.snapshot(conversation.id);
    expect(snapshot).toMatchObject({ compareId, text: 'A slow and never ending story' });
    expect(snapshot?.columns[0]).toMatchObject({ model: 'careful/careful-1', status: 'streaming' });
    expect(snapshot?.columns[0]?.text).toMatch(/^word0 /);
    expect(env.app.chatCompare.stop(compareId, 0)).toBe(true);
    await waitFor(() => finished(compareId).get(0), { what: 'the stopped column' });
    expect(finished(compareId).get(0)).toMatchObject({ status: 'stopped' });
    expect(finished(compareId).has(1)).toBe(false); // the scripted "slow" answer goes on

    expect(env.app.chatCompare.stop(compareId)).toBe(true);
    const answers = await compareFinished(compareId);
    expect(answers.get(1)).toMatchObject({ status: 'stopped' });
    expect(env.app.chatCompare.stop(compareId)).toBe(false);

    const picked = await env.app.chatCompare.pick(compareId, 0);
    expect(picked.messages.map((message) => message.status)).toEqual(['complete', 'stopped']);
    expect(env.app.chatCompare.snapshot(conversation.id)).toBeNull();
    expect(picked.conversation.title).toBe('A slow and never ending story');
  });

  it('refuses what cannot be compared in the bridge’s terms', async () => {
    const request = bridgeContract['chat:compare'].request;
    const problem = (models: string[]) =>
      request.safeParse({ conversationId: 'c', text: 'Hi', models }).error?.issues[0]?.message;
    expect(problem(['fake/scripted-1'])).toBe('choose at least 2 models to compare');
    expect(problem(['a/1', 'a/2', 'a/3', 'a/4', 'a/5'])).toBe('at most 4 models can be compared');
    expect(problem(['a/1', 'a/1'])).toBe('choose each model once');
    expect(problem(['a/1', 'a/2'])).toBeUndefined();
    const conversation = await env.app.chat.createConversation({ model: 'fake/scripted-1' });
    await expect(
      env.app.chatCompare.start('no-such-conversation', 'Hi', ['fake/scripted-1', 'careful/careful-1']),
    ).rejects.toMatchObject({ code: 'not-found' });
    await expect(env.app.chatCompare.pick('no-such-comparison', 0)).rejects.toMatchObject({ code: 'not-found' });
    const { compareId } = await env.app.chatCompare.start(conversation.id, 'Hi', ['fake/scripted-1', 'fake/nope']);
    const answers = await compareFinished(compareId);
    expect(answers.get(1)).toMatchObject({ status: 'error', error: expect.stringContaining('nope') });
    await expect(env.app.chatCompare.pick(compareId, 1)).rejects.toMatchObject({
      code: 'invalid-request',
      message: 'This answer has nothing to continue with: choose another.',
    });
    expect(env.app.chatCompare.discard(compareId)).toBe(true);
    expect(env.app.chatCompare.discard(compareId)).toBe(false);

    // A conversation that went on meanwhile no longer fits the answers.
    const { compareId: later } = await env.app.chatCompare.start(conversation.id, 'Hello', [
      'fake/scripted-1',
      'careful/careful-1',
    ]);
    await compareFinished(later);
    await env.app.chat.send(conversation.id, 'Something else first');
    await waitFor(async () => !(await env.app.chat.getConversation(conversation.id)).running, {
      what: 'the other turn',
    });
    await expect(env.app.chatCompare.pick(later, 0)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('The conversation changed since this comparison started'),
    });
    expect((await env.app.chat.getConversation(conversation.id)).messages).toHaveLength(2);
  });
});
