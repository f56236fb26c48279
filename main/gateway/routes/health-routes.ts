// Probes for whatever runs the gateway (a load balancer, an orchestrator, systemd), on the gateway's own port:
//   GET /healthz  the process is up and serving HTTP; nothing else is asked.
//   GET /readyz   it can serve requests: the database answers and its schema is current (GatewayHealth).
// Both are public on purpose: a probe carries no key. So they answer fixed words only — no version, no paths, no
// counts, no error text — and they still pass the Host and Origin checks that every route passes (security.ts).

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { GatewayHealth } from '../deps.js';
import type { RouteAccess } from '../http/route-access.js';

const healthPath = '/healthz';
const readyPath = '/readyz';

const publicRoute: { config: { access: RouteAccess } } = { config: { access: 'public' } };

function answer(reply: FastifyReply, status: number, body: object): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').send(body);
}

export function registerHealthRoutes(server: FastifyInstance, health: GatewayHealth | undefined, logger: Logger): void {
  server.get(healthPath, publicRoute, async (_request, reply) => answer(reply, 200, { status: 'ok' }));

  // Probes come every few seconds: the log says when readiness changes, not at every probe.
  let wasReady = true;
  server.get(readyPath, publicRoute, async (_request, reply) => {
    if (!health) return answer(reply, 200, { status: 'ready', checks: {} });
    try {
      const { ready, checks } = await health.readiness();
      if (ready !== wasReady) {
        if (ready) logger.info('ready again');
        else logger.warn({ checks }, 'not ready');
        wasReady = ready;
      }
      return answer(reply, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks });
    } catch (error) {
      logger.error({ err: error }, 'the readiness check itself failed');
      wasReady = false;
      return answer(reply, 503, { status: 'not ready', checks: {} });
    }
  });
}
