import { describe, expect, it } from 'vitest';
import { ApiError, isAcceptedImageUrl } from '../../../shared/api/index.js';
import { formatPath, parseChatRequest } from './validate-chat-request.js';

const user = { role: 'user', content: 'hi' };

function message(body: unknown): string {
  try {
    parseChatRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error('expected a 400');
}

describe('parseChatRequest', () => {
  it('defaults stream to true, keeps every field, unknown ones included, and drops nulls', () => {
    expect(
      parseChatRequest({
        model: 'openai/gpt-4o',
        messages: [user],
        temperature: 0,
        top_p: null,
        transforms: ['middle-out'],
        provider: { order: ['x'] },
        stream_options: { include_usage: true },
      }),
    ).toEqual({
      model: 'openai/gpt-4o',
      messages: [user],
      stream: true,
      temperature: 0,
      transforms: ['middle-out'],
      provider: { order: ['x'] },
      stream_options: { include_usage: true },
    });
  });

  it('keeps messages as given, including extra fields such as cache_control', () => {
    const messages = [
      { role: 'system', content: [{ type: 'text', text: 'Long prompt', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        reasoning_details: [{ type: 'reasoning.encrypted', data: 'abc', id: 'c1', format: 'google-gemini-v1' }],
      },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: '{"ok":true}' }] },
      { role: 'developer', content: 'Be brief.' },
    ];
    expect(parseChatRequest({ model: 'a/b', messages, stream: false }).messages).toEqual(messages);
  });

  it.each([
    [[], 'body must be'],
    [{ messages: [user] }, 'model is required'],
    [{ model: '', messages: [user] }, 'model must not be empty'],
    [{ model: 'a/b', messages: 'hi' }, 'messages must be an array'],
    [
      { model: 'a/b', messages: [{ role: 'bot', content: 'x' }] },
      'messages[0].role must be one of "system", "developer"',
    ],
    [{ model: 'a/b', messages: [{ role: 'user' }] }, 'messages[0].content is required when role is "user"'],
    [{ model: 'a/b', messages: [{ role: 'assistant', content: null }] }, 'messages[0].content is required unless'],
    [
      { model: 'a/b', messages: [user, user, { role: 'tool', content: 'x' }] },
      'messages[2].tool_call_id is required when role is "tool"',
    ],
    [
      {
        model: 'a/b',
        messages: [
          {
            role: 'tool',
            tool_call_id: 'c',
            content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }],
          },
        ],
      },
      'messages[0].content[0].type must be "text" when role is "tool"',
    ],
    [
      { model: 'a/b', messages: [{ role: 'user', content: [{ type: 'text' }] }] },
      'messages[0].content[0].text is required',
    ],
    [
      { model: 'a/b', messages: [{ role: 'user', content: [{ type: 'video' }] }] },
      'messages[0].content[0].type must be one of "text", "image_url", "file", "input_audio", "refusal"',
    ],
    [
      { model: 'a/b', messages: [{ role: 'user', content: 42 }] },
      'messages[0].content must be a string or an array of content parts',
    ],
    [
      { model: 'a/b', messages: [{ role: 'user', tool_calls: [], content: 'x' }] },
      'messages[0].tool_calls is only allowed when role is "assistant"',
    ],
    [
      {
        model: 'a/b',
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }],
          },
        ],
      },
      'messages[0].tool_calls[0].function.arguments must be a string',
    ],
    [{ model: 'a/b', messages: [user], temperature: 2.5 }, 'temperature must be <= 2'],
    [{ model: 'a/b', messages: [user], temperature: -1 }, 'temperature must be >= 0'],
    [{ model: 'a/b', messages: [user], top_p: 1.5 }, 'top_p must be <= 1'],
    [{ model: 'a/b', messages: [user], max_tokens: 1.5 }, 'max_tokens must be an integer'],
    [{ model: 'a/b', messages: [user], max_tokens: 0 }, 'max_tokens must be positive'],
    [
      { model: 'a/b', messages: [user], stop: ['a', 'b', 'c', 'd', 'e'] },
      'stop must be a string or an array of at most 4',
    ],
    [{ model: 'a/b', messages: [user], stream: 'yes' }, 'stream must be a boolean'],
    [{ model: 'a/b', messages: [user], models: ['x/y', 3] }, 'models[1] must be a string'],
    [{ model: 'a/b', messages: [user], reasoning: { effort: 'max' } }, 'reasoning.effort must be one of'],
    [
      { model: 'a/b', messages: [user], tools: [{ type: 'function', function: { name: 'has space' } }] },
      'tools[0].function.name must be 1 to 64',
    ],
    [
      { model: 'a/b', messages: [user], tools: [{ type: 'function', function: { name: 'f', parameters: [] } }] },
      'tools[0].function.parameters must be an object',
    ],
    [{ model: 'a/b', messages: [user], tools: [{ type: 'retrieval' }] }, 'tools[0].type must be "function"'],
    [
      { model: 'a/b', messages: [user], tool_choice: 'any' },
      'tool_choice must be "none", "auto", "required", {"type": "function", "function": {"name": "<tool>"}} or {"type": "allowed_tools"',
    ],
    [
      { model: 'a/b', messages: [user], tool_choice: { type: 'function', function: { name: 'f' } } },
      'tool_choice.function.name "f" is not one of the declared tools',
    ],
  ])('rejects %j: %s', (body, expected) => {
    expect(message(body)).toContain(expected);
  });

  it('reports several problems at once (at most three)', () => {
    const text = message({ messages: 'x', temperature: 9, top_p: 9, max_tokens: -1 });
    expect(text.split('; ')).toHaveLength(3);
  });
});

describe('isAcceptedImageUrl', () => {
  it.each([
    ['data:image/png;base64,iVBORw0KGgo=', true],
    ['data:image/jpeg;base64,/9j/4AAQ', true],
    ['https://example.test/cat.png', true],
    ['http://127.0.0.1/cat.png', true],
    ['data:image/png;base64,', false],
    ['data:image/png;base64,not base64!', false],
    ['data:text/plain;base64,aGk=', false],
    ['data:image/png,rawbytes', false],
    ['file:///etc/passwd', false],
    ['ftp://x.test/a.png', false],
    ['cat.png', false],
  ])('%s → %s', (url, accepted) => {
    expect(isAcceptedImageUrl(url)).toBe(accepted);
  });
});

describe('formatPath', () => {
  it('formats paths like JavaScript accessors', () => {
    expect(formatPath(['messages', 2, 'content', 0, 'image_url', 'url'])).toBe('messages[2].content[0].image_url.url');
    expect(formatPath([])).toBe('');
  });
});

describe('nesting', () => {
  function nested(depth: number): unknown {
    let value: unknown = { type: 'string' };
    for (let level = 0; level < depth; level += 1) value = { type: 'object', properties: { inner: value } };
    return value;
  }

  it('refuses a tool schema nested thousands of levels deep with a 400 naming the field', () => {
    const body = {
      model: 'p/m',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: nested(5_000) } }],
    };
    expect(message(body)).toBe('Invalid request: tools[0].function.parameters… is nested more than 64 levels deep.');
  });

  it('accepts a schema as deep as real tools make them', () => {
    const body = {
      model: 'p/m',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: nested(25) } }],
    };
    expect(parseChatRequest(body).tools).toHaveLength(1);
  });
});

describe('OpenAI’s and OpenRouter’s further parameters', () => {
  it('uses the first of `models` when `model` is left out, and asks for one of them when both are', () => {
    expect(parseChatRequest({ models: ['a/b', 'c/d'], messages: [user] })).toMatchObject({
      model: 'a/b',
      models: ['a/b', 'c/d'],
    });
    expect(message({ messages: [user] })).toBe('Invalid request: model is required (or name the models in "models").');
  });

  it('accepts every reasoning effort OpenAI and OpenRouter define, and reads reasoning_effort as reasoning.effort', () => {
    for (const effort of ['none', 'minimal', 'low', 'medium', 'high', 'xhigh']) {
      expect(parseChatRequest({ model: 'a/b', messages: [user], reasoning: { effort } }).reasoning).toEqual({ effort });
      expect(parseChatRequest({ model: 'a/b', messages: [user], reasoning_effort: effort }).reasoning).toEqual({
        effort,
      });
    }
    expect(message({ model: 'a/b', messages: [user], reasoning_effort: 'max' })).toContain('reasoning_effort must be');
  });

  it('accepts tool_choice "allowed_tools" naming declared tools, and names an undeclared one', () => {
    const tools = [
      { type: 'function', function: { name: 'a' } },
      { type: 'function', function: { name: 'b' } },
    ];
    const allowed = (name: string) => ({
      type: 'allowed_tools',
      allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name } }] },
    });
    expect(parseChatRequest({ model: 'a/b', messages: [user], tools, tool_choice: allowed('b') }).tool_choice).toEqual(
      allowed('b'),
    );
    expect(message({ model: 'a/b', messages: [user], tools, tool_choice: allowed('zz') })).toBe(
      'Invalid request: tool_choice.allowed_tools.tools[0].function.name "zz" is not one of the declared tools.',
    );
  });

  it('checks the types of the parameters it knows, naming the field', () => {
    expect(message({ model: 'a/b', messages: [user], n: 0 })).toBe('Invalid request: n must be >= 1.');
    expect(message({ model: 'a/b', messages: [user], top_logprobs: 21 })).toBe(
      'Invalid request: top_logprobs must be <= 20.',
    );
    expect(message({ model: 'a/b', messages: [user], logit_bias: { '1': 'x' } })).toContain('logit_bias');
  });
});

describe('content parts beyond text and images', () => {
  it('accepts files (data or id), audio in user messages and refusals in assistant messages', () => {
    const request = parseChatRequest({
      model: 'a/b',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERg==', filename: 'a.pdf' } },
            { type: 'file', file: { file_id: 'file-123' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
        user,
      ],
    });
    expect(request.messages).toHaveLength(3);
  });

  it('names what is wrong: a file with neither data nor id, media outside user messages, a refusal from the user', () => {
    expect(message({ model: 'a/b', messages: [{ role: 'user', content: [{ type: 'file', file: {} }] }] })).toBe(
      'Invalid request: messages[0].content[0].file needs file_data or file_id.',
    );
    expect(
      message({
        model: 'a/b',
        messages: [
          { role: 'assistant', content: [{ type: 'input_audio', input_audio: { data: 'AA==', format: 'wav' } }] },
        ],
      }),
    ).toBe('Invalid request: messages[0].content[0].type must be "text" when role is "assistant".');
    expect(message({ model: 'a/b', messages: [{ role: 'user', content: [{ type: 'refusal', refusal: 'x' }] }] })).toBe(
      'Invalid request: messages[0].content[0].type "refusal" is only allowed when role is "assistant".',
    );
  });
});
