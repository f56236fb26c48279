export { createGateway, type Gateway, type GatewayOptions, type GatewayRoute } from './create-gateway.js';
export type {
  GatewayAccounts,
  GatewayDeps,
  GatewayHealth,
  GatewayKeys,
  GatewayMcpHub,
  GatewayMetricsScrape,
  GatewayReadiness,
  GatewayTargetHealth,
  GatewayUsage,
} from './deps.js';
export type { AttemptWatch, GenerationWatch, GenerationWatcher, WatchedGeneration } from './pipeline/watch.js';
export { defaultRetryPolicy, type RetryOptions, type RetryPolicy } from './pipeline/upstream-attempts.js';
export { routeAccess, type RouteAccess } from './http/route-access.js';
export { apiBases, openAIBaseUrlOf, type ApiBase } from './http/api-bases.js';
export { mcpPath } from './routes/mcp-route.js';
export { countTokenGroups } from './pipeline/usage-estimate.js';
export {
  defaultResponseCacheLimits,
  type ResponseCacheScope,
  type ResponseCacheSettings,
} from './pipeline/cache-plan.js';
export { GatewayMetrics, type GatewayMetricsOptions, type TargetState } from './metrics/gateway-metrics.js';
export { answerWorkersMetricsRequests, isMetricsMessage, scrapeOf } from './metrics/cluster-metrics.js';
export { metricsPath } from './routes/metrics-route.js';
