// An MCP server for the sampling tests: its tool `sample` sends the `sampling/createMessage` params it is given,
// valid or not (server-everything's tool sends only well-formed ones), and answers what came back as JSON text:
// `{"result": …}`, or `{"error": {"code": …, "message": …}}` for the client's JSON-RPC error.
//   node sampling-server.mjs

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const server = new McpServer({ name: 'sampling-fixture', version: '1.0.0' });

server.registerTool(
  'sample',
  { description: 'Sends sampling/createMessage with these params.', inputSchema: { params: z.any() } },
  async ({ params }, extra) => {
    let answer;
    try {
      answer = {
        result: await extra.sendRequest({ method: 'sampling/createMessage', params }, CreateMessageResultSchema),
      };
    } catch (error) {
      answer = { error: { code: error.code, message: error.message } };
    }
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  },
);

await server.connect(new StdioServerTransport());
