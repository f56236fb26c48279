// GET /metrics: the gateway's Prometheus metrics in the text exposition format, on the gateway's own port. Prometheus
// sends a key as a bearer token (its scrape config's `authorization`); the key needs the management right or the
// metrics right (`switchyard keys update ID --allow-metrics`). The body names no secret and no prompt (decision 032).

import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../shared/api/index.js';
import { authenticatedKey } from '../http/auth.js';
import type { GatewayAccounts, GatewayMetricsScrape } from '../deps.js';

export const metricsPath = '/metrics';

/** What the route reads: the scrape, and the key rules when the gateway has them. */
export interface MetricsRouteDeps {
  metrics: GatewayMetricsScrape;
  accounts?: Pick<GatewayAccounts, 'mayReadMetrics'>;
}

export function registerMetricsRoute(server: FastifyInstance, { metrics, accounts }: MetricsRouteDeps): void {
  server.get(metricsPath, async (request, reply) => {
    const caller = authenticatedKey(request).id;
    // Without accounts (tests' minimal wiring) every key may do everything, as deps.ts says.
    if (accounts && !accounts.mayReadMetrics(caller)) {
      throw new ApiError(
        403,
        'Reading /metrics needs a management key or a key with the metrics right (switchyard keys update ID --allow-metrics).',
      );
    }
    const text = await metrics.text();
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
