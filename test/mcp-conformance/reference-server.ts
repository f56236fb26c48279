// The MCP server the official conformance suite's server scenarios expect (tool names like test_simple_text,
// resources like test://static-text, the prompts, completion, logging, progress, sampling, elicitation,
// subscriptions, SSE polling), written with the MCP SDK's low-level Server over Streamable HTTP on 127.0.0.1.
// Run against it alone, the suite passes every server scenario: the control. Placed behind the hub, what fails is
// the hub's. Its tools are a table of definitions (raw JSON Schemas, so json_schema_2020_12_tool keeps `$schema`,
// `$defs` and `additionalProperties`) and what each does.

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  isInitializeRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type ElicitRequestFormParams,
  type GetPromptResult,
  type Prompt,
  type Resource,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';

/** A 1×1 PNG and the smallest WAV, as the suite's scenarios expect some image and audio. */
const pngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const wavBase64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

interface ToolDefinition {
  tool: Tool;
  run(args: Record<string, unknown>, extra: Extra, session: ReferenceSession): Promise<CallToolResult>;
}

interface ReferenceSession {
  server: Server;
  transport: StreamableHTTPServerTransport;
  /** The protocol version initialize agreed on. */
  protocolVersion?: string;
}

const noArguments: Tool['inputSchema'] = { type: 'object', properties: {} };
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks the client a form question and reports its answer as the scenarios read it. */
async function elicit(
  session: ReferenceSession,
  message: string,
  requestedSchema: ElicitRequestFormParams['requestedSchema'],
): Promise<CallToolResult> {
  const answer = await session.server.elicitInput({ mode: 'form', message, requestedSchema });
  return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
}

const tools: ToolDefinition[] = [
  {
    tool: { name: 'test_simple_text', description: 'Answers with one text block', inputSchema: noArguments },
    run: async () => text('This is a simple text response for testing.'),
  },
  {
    tool: { name: 'test_image_content', description: 'Answers with an image', inputSchema: noArguments },
    run: async () => ({ content: [{ type: 'image', data: pngBase64, mimeType: 'image/png' }] }),
  },
  {
    tool: { name: 'test_audio_content', description: 'Answers with audio', inputSchema: noArguments },
    run: async () => ({ content: [{ type: 'audio', data: wavBase64, mimeType: 'audio/wav' }] }),
  },
  {
    tool: {
      name: 'test_embedded_resource',
      description: 'Answers with an embedded resource',
      inputSchema: noArguments,
    },
    run: async () => ({
      content: [
        {
          type: 'resource',
          resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource.' },
        },
      ],
    }),
  },
  {
    tool: { name: 'test_multiple_content_types', description: 'Text, image and resource', inputSchema: noArguments },
    run: async () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: pngBase64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data"}' },
        },
      ],
    }),
  },
  {
    tool: {
      name: 'test_tool_with_logging',
      description: 'Logs three messages while it runs',
      inputSchema: noArguments,
    },
    run: async (_args, extra) => {
      for (const data of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
        await pause(20);
      }
      return text('Tool with logging executed successfully');
    },
  },
  {
    tool: { name: 'test_tool_with_progress', description: 'Reports progress 0, 50, 100', inputSchema: noArguments },
    run: async (_args, extra) => {
      const progressToken = extra._meta?.progressToken ?? 0;
      for (const progress of [0, 50, 100]) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` },
        });
        await pause(20);
      }
      return text(String(progressToken));
    },
  },
  {
    tool: { name: 'test_error_handling', description: 'Always fails', inputSchema: noArguments },
    run: async () => ({ isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error' }] }),
  },
  {
    tool: {
      name: 'test_reconnection',
      description: 'Closes its SSE stream mid-call; the answer comes after the client reconnects (SEP-1699)',
      inputSchema: noArguments,
    },
    run: async (_args, extra, session) => {
      session.transport.closeSSEStream(extra.requestId);
      await pause(100);
      return text('Reconnection test completed successfully.');
    },
  },
  {
    tool: {
      name: 'test_sampling',
      description: 'Asks the client for an LLM completion',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    },
    run: async (args, extra, session) => {
      if (!session.server.getClientCapabilities()?.sampling) {
        return { isError: true, content: [{ type: 'text', text: 'The client does not offer sampling.' }] };
      }
      const answer = await session.server.createMessage(
        { messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }], maxTokens: 100 },
        { relatedRequestId: extra.requestId },
      );
      const reply = answer.content.type === 'text' ? answer.content.text : `(${answer.content.type})`;
      return text(`LLM response: ${reply}`);
    },
  },
  {
    tool: {
      name: 'test_elicitation',
      description: 'Asks the user a question',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
    run: async (args, _extra, session) =>
      elicit(session, String(args.message), {
        type: 'object',
        properties: { username: { type: 'string' }, email: { type: 'string', format: 'email' } },
        required: [],
      }),
  },
  {
    tool: { name: 'test_elicitation_sep1034_defaults', description: 'A form with defaults', inputSchema: noArguments },
    run: async (_args, _extra, session) =>
      elicit(session, 'Please review the fields and their defaults', {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      }),
  },
  {
    tool: {
      name: 'test_elicitation_sep1330_enums',
      description: 'A form with every enum kind',
      inputSchema: noArguments,
    },
    run: async (_args, _extra, session) =>
      elicit(session, 'Please choose', {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['One', 'Two', 'Three'] },
          untitledMulti: {
            type: 'array',
            minItems: 1,
            maxItems: 3,
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      }),
  },
  {
    tool: {
      name: 'json_schema_2020_12_tool',
      description: 'Its input schema uses JSON Schema 2020-12 (SEP-1613)',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      },
    },
    run: async (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  },
];

const resources: (Resource & { contents: { text?: string; blob?: string } })[] = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    mimeType: 'text/plain',
    contents: { text: 'This is the content of the static text resource.' },
  },
  { uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png', contents: { blob: pngBase64 } },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    mimeType: 'text/plain',
    contents: { text: 'Watched resource content' },
  },
];
const templatePattern = /^test:\/\/template\/([^/]+)\/data$/;

const prompts: (Prompt & { get(args: Record<string, string>): GetPromptResult })[] = [
  {
    name: 'test_simple_prompt',
    description: 'A prompt without arguments',
    get: () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    }),
  },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First argument', required: true },
      { name: 'arg2', description: 'Second argument', required: true },
    ],
    get: ({ arg1, arg2 }) => ({
      messages: [
        { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
      ],
    }),
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'The URI to embed', required: true }],
    get: ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri ?? '', mimeType: 'text/plain', text: 'Embedded resource content.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  },
  {
    name: 'test_prompt_with_image',
    description: 'A prompt with an image',
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: pngBase64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  },
];

function createReferenceSession(transport: StreamableHTTPServerTransport): ReferenceSession {
  const server = new Server(
    { name: 'switchyard-conformance-reference', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );
  const session: ReferenceSession = { server, transport };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((definition) => definition.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const definition = tools.find((candidate) => candidate.tool.name === request.params.name);
    if (!definition) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return definition.run(request.params.arguments ?? {}, extra, session);
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: resources.map(({ contents: _contents, ...resource }) => resource),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template', mimeType: 'application/json' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params: { uri } }) => {
    const id = templatePattern.exec(uri)?.[1];
    if (id !== undefined) {
      const data = { id, templateTest: true, data: `Data for ID: ${id}` };
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data) }] };
    }
    const resource = resources.find((candidate) => candidate.uri === uri);
    if (!resource) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
    return { contents: [{ uri, mimeType: resource.mimeType, ...resource.contents }] };
  });
  server.setRequestHandler(SubscribeRequestSchema, () => ({}));
  server.setRequestHandler(UnsubscribeRequestSchema, () => ({}));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: prompts.map(({ get: _get, ...prompt }) => prompt),
  }));
  server.setRequestHandler(GetPromptRequestSchema, ({ params }) => {
    const prompt = prompts.find((candidate) => candidate.name === params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${params.name}`);
    return prompt.get(params.arguments ?? {});
  });
  server.setRequestHandler(CompleteRequestSchema, ({ params }) => {
    const values = ['paris', 'park', 'party'].filter((value) => value.startsWith(params.argument.value));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return session;
}

export interface ReferenceServer {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp. */
  url: string;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Replaces a request header where the SDK's transport reads it (the raw headers, which it turns into a Request). */
function setHeader(request: IncomingMessage, name: string, value: string): void {
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]?.toLowerCase() === name) raw[index + 1] = value;
  }
  request.headers[name] = value;
}

/** Starts the reference server on a free loopback port; one MCP session per client, resumable streams. */
export async function startReferenceServer(): Promise<ReferenceServer> {
  const sessions = new Map<string, ReferenceSession>();
  let port = 0;
  const http = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await readJson(request) : undefined;
      const header = request.headers['mcp-session-id'];
      const existing = typeof header === 'string' ? sessions.get(header) : undefined;
      if (existing) {
        // The SDK primes a stream (an event id and `retry`, so that the client can resume) only for a client whose
        // MCP-Protocol-Version header says 2025-11-25; the suite's SSE polling scenario sends an older header on a
        // session that agreed on 2025-11-25. The version the session agreed on is the one that counts here.
        if (existing.protocolVersion !== undefined)
          setHeader(request, 'mcp-protocol-version', existing.protocolVersion);
        return existing.transport.handleRequest(request, response, body);
      }
      if (header !== undefined || request.method !== 'POST' || !isInitializeRequest(body)) {
        response.writeHead(header === undefined ? 400 : 404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'No such session' }, id: null }));
        return;
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new InMemoryEventStore(),
        retryInterval: 500,
        enableDnsRebindingProtection: true,
        allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`],
        onsessioninitialized: (id) => void sessions.set(id, session),
        onsessionclosed: (id) => void sessions.delete(id),
      });
      const session = createReferenceSession(transport);
      session.protocolVersion = body.params.protocolVersion;
      await session.server.connect(transport);
      await transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: String(error) }, id: null }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((session) => session.server.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

// `node --import tsx test/mcp-conformance/reference-server.ts` serves it until stopped, to run the suite by hand.
if (import.meta.url === `file://${process.argv[1]}`) {
  const started = await startReferenceServer();
  process.stdout.write(`${started.url}\n`);
}
