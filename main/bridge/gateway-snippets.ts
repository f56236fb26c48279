// Where callers reach the gateway, and code to paste: curl and the official openai SDKs, pointed at the /v1 base
// (OpenAI's defaults, so SDK code behaves as it does against OpenAI), with the key read from SWITCHYARD_API_KEY
// (a snippet never holds a secret).

import type { CodeSnippet, GatewayInfo } from '../../shared/bridge/types.js';
import { openAIBaseUrlOf } from '../gateway/index.js';

export const snippetPlaceholderModel = 'openai/gpt-4o-mini';

/** `baseUrl` is the interface's base (…/api/v1), as the gateway reports it. */
export function gatewayInfo(baseUrl: string | null, model = snippetPlaceholderModel): GatewayInfo {
  if (baseUrl === null) return { listening: false, baseUrl: null, openAIBaseUrl: null, port: null, snippets: [] };
  const url = new URL(baseUrl);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const openAIBaseUrl = openAIBaseUrlOf(baseUrl);
  return { listening: true, baseUrl, openAIBaseUrl, port, snippets: clientSnippets(openAIBaseUrl, model) };
}

/** JSON string literals are valid JavaScript and Python string literals too. */
const literal = (text: string) => JSON.stringify(text);

/** For text inside '…' in a POSIX shell. */
const shellQuoted = (text: string) => text.replace(/'/g, `'\\''`);

export function clientSnippets(baseUrl: string, model: string): CodeSnippet[] {
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello!' }] });
  return [
    {
      id: 'curl',
      label: 'curl',
      language: 'sh',
      code: [
        `curl ${baseUrl}/chat/completions \\`,
        `  -H "Authorization: Bearer $SWITCHYARD_API_KEY" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d '${shellQuoted(body)}'`,
      ].join('\n'),
    },
    {
      id: 'openai-js',
      label: 'openai (JavaScript)',
      language: 'js',
      code: [
        `import OpenAI from 'openai';`,
        ``,
        `const client = new OpenAI({ baseURL: ${literal(baseUrl)}, apiKey: process.env.SWITCHYARD_API_KEY });`,
        ``,
        `const stream = await client.chat.completions.create({`,
        `  model: ${literal(model)},`,
        `  messages: [{ role: 'user', content: 'Hello!' }],`,
        `  stream: true,`,
        `});`,
        `for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');`,
      ].join('\n'),
    },
    {
      id: 'openai-python',
      label: 'openai (Python)',
      language: 'python',
      code: [
        `import os`,
        `from openai import OpenAI`,
        ``,
        `client = OpenAI(base_url=${literal(baseUrl)}, api_key=os.environ["SWITCHYARD_API_KEY"])`,
        ``,
        `stream = client.chat.completions.create(`,
        `    model=${literal(model)},`,
        `    messages=[{"role": "user", "content": "Hello!"}],`,
        `    stream=True,`,
        `)`,
        `for chunk in stream:`,
        `    if chunk.choices:  # the last chunk carries only the usage`,
        `        print(chunk.choices[0].delta.content or "", end="", flush=True)`,
      ].join('\n'),
    },
  ];
}
