// `/mcp`: the MCP hub over Streamable HTTP, on the gateway's port (GET, POST and DELETE, as the transport uses
// them). The gateway does what it does for every route (Host and Origin checks, the key, 401 in its envelope);
// then a key needs the MCP right (`allowed_mcp`, `keys update ID --allow-mcp …`), since the hub runs the user's
// local tools (files, shells) and a key made for model calls must not gain that by the hub's arrival. The MCP
// protocol itself is the hub's (main/mcp/hub), handed the raw request and response.

import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../shared/api/index.js';
import { authenticatedKey } from '../http/auth.js';
import type { GatewayAccounts, GatewayMcpHub } from '../deps.js';

export const mcpPath = '/mcp';

export function registerMcpRoute(
  server: FastifyInstance,
  hub: GatewayMcpHub,
  accounts?: Pick<GatewayAccounts, 'mcpAccess'>,
): void {
  server.route({
    method: ['GET', 'POST', 'DELETE'],
    url: mcpPath,
    handler: async (request, reply) => {
      const key = authenticatedKey(request);
      // Without accounts (tests' minimal wiring) every key may do everything, as deps.ts says.
      const access = accounts ? accounts.mcpAccess(key.id) : ['*'];
      if (access === null) {
        throw new ApiError(
          403,
          `This API key may not use the MCP hub. Allow it: switchyard keys update ${key.id} --allow-mcp '*' ` +
            '(or a list of servers and server__tool names).',
          { reason: 'mcp_not_allowed' },
        );
      }
      reply.hijack();
      await hub.handle({
        request: request.raw,
        response: reply.raw,
        body: request.body,
        caller: { keyId: key.id, keyName: key.name, access },
      });
    },
  });
}
