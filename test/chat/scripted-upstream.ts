// The fake OpenAI upstream as the chat tests configure it: what it streams depends on the conversation it gets.
// - the last message is a `tool` result → a final answer quoting it ("The tool said: …");
// - the last user message mentions "echo" → a streamed tool call of server-everything's `echo`, in fragments;
// - "loop" → a tool call every time (for the step cap);
// - "slow" → a long answer, piece by piece (for stop);
// - "think" → reasoning first, then the answer;
// - anything else → a short markdown answer with a code block.
// - "twins WORD" → two echo calls in one reply, both with the id `call_1` (as some upstreams number them, every
//   turn), echoing WORD-1 and WORD-2;
// - "tiny image" → a tool call of server-everything's `get-tiny-image` (a result with an image);
// - "have the server sample" → a tool call of server-everything's `trigger-sampling-request` (the server then asks
//   for a model: MCP sampling);
// Every answer ends with a usage chunk carrying a cost, as OpenRouter's do — except in a conversation that says
// "unpriced", whose upstream reports no cost (the gateway then prices it, or reports 0 for a model without a price).

import { answer, FakeOpenAI, cut, type AnswerPlan, type RecordedRequest, type Step } from '../support/fake-openai.js';

/** What the chat tests read of a request the upstream received. */
export interface RecordedUpstreamRequest extends RecordedRequest {
  body: {
    model?: string;
    messages?: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { function: { name: string } }[];
    temperature?: number;
  } | null;
}

/** The fake, with the chat request bodies typed. */
export type ScriptedUpstream = Omit<FakeOpenAI, 'chatRequests'> & { chatRequests(): RecordedUpstreamRequest[] };

export interface ScriptedUpstreamOptions {
  /** Delay between pieces of ordinary answers (slow answers use slowPieceMs). */
  pieceDelayMs?: number;
  slowPieceMs?: number;
}

export const echoFunction = 'everything__echo';
export const defaultAnswer = 'Hello from the **scripted** model.\n\n```js\nconst answer = 42;\n```\n';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
      .join(' ');
  }
  return '';
}

/** The plan for a conversation, and whether it is a slow one. */
function plan(body: NonNullable<RecordedUpstreamRequest['body']>): AnswerPlan & { slow?: boolean } {
  const messages = body.messages ?? [];
  const last = messages.at(-1);
  const lastUser = textOf(messages.findLast((message) => message.role === 'user')?.content).toLowerCase();
  const text = (answerText: string, size = 6) => ({ content: cut(answerText, size) });
  const toolCall = (id: string, args: string) => ({
    toolCalls: [{ id, name: echoFunction, arguments: args }],
    argumentPieceSize: 5,
  });
  if (lastUser.includes('loop')) {
    const round = messages.filter((message) => message.role === 'tool').length;
    return toolCall(`call_loop_${round}`, JSON.stringify({ message: `round ${round}` }));
  }
  if (last?.role === 'tool') return text(`The tool said: ${textOf(last.content)}`);
  if (lastUser.includes('twins')) {
    const word = /twins\s+(\S+)/.exec(lastUser)?.[1] ?? 'ping';
    return {
      toolCalls: [1, 2].map((n) => ({
        id: 'call_1',
        name: echoFunction,
        arguments: JSON.stringify({ message: `${word}-${n}` }),
      })),
    };
  }
  if (lastUser.includes('have the server sample')) {
    const args = JSON.stringify({ prompt: 'from the chat', maxTokens: 30 });
    return { toolCalls: [{ id: 'call_sample_1', name: 'everything__trigger-sampling-request', arguments: args }] };
  }
  if (lastUser.includes('tiny image')) {
    return { toolCalls: [{ id: 'call_image_1', name: 'everything__get-tiny-image', arguments: '{}' }] };
  }
  if (lastUser.includes('echo')) {
    const word = /echo\s+(\S+)/.exec(lastUser)?.[1] ?? 'ping';
    return toolCall('call_echo_1', JSON.stringify({ message: word }));
  }
  if (lastUser.includes('slow')) {
    return { ...text(Array.from({ length: 400 }, (_, index) => `word${index} `).join(''), 8), slow: true };
  }
  if (lastUser.includes('think')) {
    return { reasoning: ['Let me ', 'think about it.'], reasoningField: 'reasoning', ...text('Thought it through.') };
  }
  return text(defaultAnswer);
}

/** Answers each chat request as its conversation asks, always streamed, usage with a cost at the end. */
export function conversationStep(options: ScriptedUpstreamOptions = {}): Step {
  return (request) => {
    const body = (request.body ?? {}) as NonNullable<RecordedUpstreamRequest['body']>;
    const { slow, ...chosen } = plan(body);
    const unpriced = (body.messages ?? []).some((message) => textOf(message.content).includes('unpriced'));
    return answer(chosen, {
      form: 'stream',
      usageUnasked: true,
      usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30, ...(unpriced ? {} : { cost: 0.0002 }) },
      chunkDelayMs: slow ? (options.slowPieceMs ?? 60) : (options.pieceDelayMs ?? 5),
    })(request);
  };
}

export async function startScriptedUpstream(options: ScriptedUpstreamOptions = {}): Promise<ScriptedUpstream> {
  const fake = new FakeOpenAI({
    models: [
      { id: 'scripted-1', object: 'model', created: 0, owned_by: 'test' },
      {
        id: 'scripted-vision',
        object: 'model',
        created: 0,
        owned_by: 'test',
        architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
      },
      {
        id: 'scripted-pdf',
        object: 'model',
        created: 0,
        owned_by: 'test',
        architecture: { input_modalities: ['text', 'image', 'file'], output_modalities: ['text'] },
      },
    ],
    fallback: conversationStep(options),
  });
  await fake.start();
  return fake as ScriptedUpstream;
}
