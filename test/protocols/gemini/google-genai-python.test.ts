// The Gemini API as the official google-genai Python SDK uses it, against the gateway. The SDK writes fields under
// their proto names (snake_case) inside nested objects (`inlineData: {mime_type: …}`, `parameters_json_schema`,
// `thinkingConfig: {thinking_level: …}`), which Google's API reads as it reads the JSON names; so must the gateway, or
// a Python user's tools arrive without parameters, images are refused and thinking settings are lost.

import { describe, expect, it } from 'vitest';
import { answer as anthropicAnswer, anthropicFixture } from '../../support/fake-anthropic.js';
import { answer as geminiAnswer } from '../../support/fake-gemini.js';
import { answer as openaiAnswer } from '../../support/fake-openai.js';
import { runPython, type PythonResult } from '../../support/python.js';
import { useHarness } from '../../support/use-harness.js';
import { parisWeatherTurns } from './expected-turns.js';
import { anthropicModel, callerSecret, nativeModel, openAIModel, startGeminiHarness } from './harness.js';

const harness = useHarness(startGeminiHarness);

/** A client of the gateway, as a Python user makes one; `script` prints what the test reads. */
const prelude = `
import json, os
from google import genai
from google.genai import types
client = genai.Client(api_key=os.environ['GATEWAY_KEY'], http_options=types.HttpOptions(base_url=os.environ['GATEWAY']))
PNG = bytes.fromhex('89504e470d0a1a0a')
`;

async function python(script: string): Promise<unknown> {
  const result: PythonResult = await runPython(`${prelude}\n${script}`, {
    GATEWAY: harness().root,
    GATEWAY_KEY: callerSecret,
  });
  if (result.code !== 0) throw new Error(`the script exited with ${result.code}:\n${result.stderr}`);
  return JSON.parse(result.stdout) as unknown;
}

/** A whole text message as the anthropic-kind upstream answers one. */
function anthropicText(id: string, text: string, usage: { input_tokens: number; output_tokens: number }) {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    usage,
  };
}

const pngBase64 = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
const readFileSchema = { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] };

describe('the google-genai Python SDK', () => {
  it('declares a function by parameters_json_schema: the upstream gets its parameters, property names as given', async () => {
    const { openai } = harness();
    const call = { id: 'call_1', name: 'read_file', arguments: '{"file_path":"/etc/hosts"}' };
    openai.script(openaiAnswer({ toolCalls: [call] }));
    const calls = await python(`
read_file = types.FunctionDeclaration(name='read_file', description='Reads a file',
    parameters_json_schema=${JSON.stringify(readFileSchema)})
response = client.models.generate_content(model='${openAIModel}', contents='Read /etc/hosts',
    config=types.GenerateContentConfig(tools=[types.Tool(function_declarations=[read_file])]))
print(json.dumps([{'name': call.name, 'args': call.args} for call in response.function_calls]))
`);
    expect(openai.chatRequests().at(-1)!.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'read_file', parameters: readFileSchema } }],
    });
    expect(calls).toEqual([{ name: 'read_file', args: { file_path: '/etc/hosts' } }]);
  });

  it('sends an image made by Part.from_bytes: the upstream gets it as an image', async () => {
    const { openai } = harness();
    openai.script(openaiAnswer('A PNG signature.'));
    const text = await python(`
image = types.Part.from_bytes(data=PNG, mime_type='image/png')
response = client.models.generate_content(model='${openAIModel}', contents=['What is it?', image])
print(json.dumps(response.text))
`);
    expect(text).toBe('A PNG signature.');
    expect((openai.chatRequests().at(-1)!.body!.messages as { content: unknown }[])[0]!.content).toEqual([
      { type: 'text', text: 'What is it?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
    ]);
  });

  it('honours ThinkingConfig: thinking_level as the effort, thinking_budget as the budget', async () => {
    const { openai, anthropic } = harness();
    openai.script(openaiAnswer('Low effort.'));
    anthropic.script(
      anthropicAnswer({ whole: anthropicText('msg_1', 'Thought it over.', { input_tokens: 10, output_tokens: 5 }) }),
    );
    await python(`
client.models.generate_content(model='${openAIModel}', contents='Think a little',
    config=types.GenerateContentConfig(thinking_config=types.ThinkingConfig(thinking_level='LOW')))
client.models.generate_content(model='${anthropicModel}', contents='Think some more',
    config=types.GenerateContentConfig(max_output_tokens=8192,
        thinking_config=types.ThinkingConfig(thinking_budget=2048, include_thoughts=True)))
print('null')
`);
    expect(openai.chatRequests().at(-1)!.body).toMatchObject({ reasoning_effort: 'low' });
    expect(anthropic.messageRequests().at(-1)!.body).toMatchObject({
      max_tokens: 8192,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
  });

  it('calls a Python function automatically and sends its result back', async () => {
    const { openai } = harness();
    const call = { id: 'call_weather', name: 'get_weather', arguments: '{"city":"Paris"}' };
    openai.script(openaiAnswer({ toolCalls: [call] }), openaiAnswer('Rain in Paris.'));
    const result = await python(`
asked = []
def get_weather(city: str) -> str:
    """The weather in a city."""
    asked.append(city)
    return 'rain in ' + city
response = client.models.generate_content(model='${openAIModel}', contents='Weather in Paris?',
    config=types.GenerateContentConfig(tools=[get_weather]))
print(json.dumps({'text': response.text, 'asked': asked}))
`);
    expect(result).toEqual({ text: 'Rain in Paris.', asked: ['Paris'] });
    const [first, second] = openai.chatRequests().slice(-2);
    expect(first!.body).toMatchObject({
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather in a city.',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ],
    });
    expect(second!.body!.messages).toEqual(parisWeatherTurns('call_weather', '{"result":"rain in Paris"}'));
  });

  it('reads a translated answer’s thought signature as bytes; the next turn gives Anthropic its own back', async () => {
    const { anthropic } = harness();
    const recorded = JSON.parse(anthropicFixture('anthropic-message.json')) as {
      content: { type: string; signature?: string; data?: string }[];
    };
    const followUp = anthropicText('msg_2', 'Sunny, and it is noon.', { input_tokens: 500, output_tokens: 8 });
    anthropic.script(anthropicAnswer({ whole: recorded }), anthropicAnswer({ whole: followUp }));
    const result = await python(`
tools = [types.Tool(function_declarations=[types.FunctionDeclaration(name='get_weather'),
    types.FunctionDeclaration(name='get_time')])]
config = types.GenerateContentConfig(tools=tools, max_output_tokens=8192,
    automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    thinking_config=types.ThinkingConfig(thinking_budget=2048, include_thoughts=True))
contents = [types.Content(role='user', parts=[types.Part(text='Weather and time in Paris?')])]
first = client.models.generate_content(model='${anthropicModel}', contents=contents, config=config)
turn = first.candidates[0].content
contents += [turn, types.Content(role='user', parts=[
    types.Part(function_response=types.FunctionResponse(id=call.id, name=call.name, response={'output': 'ok'}))
    for call in first.function_calls])]
second = client.models.generate_content(model='${anthropicModel}', contents=contents, config=config)
print(json.dumps({'signed': [isinstance(part.thought_signature, bytes) for part in turn.parts],
    'calls': [call.name for call in first.function_calls], 'text': second.text}))
`);
    expect(result).toEqual({
      signed: [false, false, true, false],
      calls: ['get_weather', 'get_time'],
      text: 'Sunny, and it is noon.',
    });
    const sent = anthropic.messageRequests().at(-1)!.body as { messages: { role: string; content: unknown[] }[] };
    const assistant = sent.messages.find((message) => message.role === 'assistant')!;
    expect(assistant.content.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'Paris weather needs the tool.', signature: recorded.content[0]!.signature },
      { type: 'redacted_thinking', data: recorded.content[1]!.data },
    ]);
  });

  it('reads the thought signature of a translated stream as bytes', async () => {
    const { anthropic } = harness();
    anthropic.script(anthropicAnswer({ stream: 'anthropic-thinking-tool-calls.sse.txt' }));
    const signatures = await python(`
config = types.GenerateContentConfig(thinking_config=types.ThinkingConfig(thinking_budget=2048, include_thoughts=True),
    max_output_tokens=8192)
signatures = []
for chunk in client.models.generate_content_stream(model='${anthropicModel}', contents='Weather and time in Paris?',
        config=config):
    signatures += [len(part.thought_signature) for part in chunk.candidates[0].content.parts if part.thought_signature]
print(json.dumps(signatures))
`);
    expect(signatures).toEqual([expect.any(Number)]);
  });

  it('reaches a google-kind upstream with every field under its JSON name, the caller’s keys as given', async () => {
    const { gemini } = harness();
    const whole = { candidates: [{ content: { role: 'model', parts: [{ text: 'A PNG.' }] }, finishReason: 'STOP' }] };
    gemini.script(geminiAnswer({ whole }));
    await python(`
read_file = types.FunctionDeclaration(name='read_file', parameters_json_schema=${JSON.stringify(readFileSchema)})
client.models.generate_content(model='${nativeModel}',
    contents=['What is it?', types.Part.from_bytes(data=PNG, mime_type='image/png')],
    config=types.GenerateContentConfig(tools=[types.Tool(function_declarations=[read_file])],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        thinking_config=types.ThinkingConfig(thinking_level='HIGH', include_thoughts=True)))
print('null')
`);
    expect(gemini.generateRequests().at(-1)!.body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'What is it?' }, { inlineData: { mimeType: 'image/png', data: pngBase64 } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'read_file', parametersJsonSchema: readFileSchema }] }],
      generationConfig: { thinkingConfig: { thinkingLevel: 'HIGH', includeThoughts: true } },
    });
  });
});
