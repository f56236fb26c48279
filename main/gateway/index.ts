export { createGateway, type Gateway, type GatewayOptions, type GatewayRoute } from './create-gateway.js';
export type {
  GatewayAccounts,
  GatewayDeps,
  GatewayHealth,
  GatewayKeys,
  GatewayReadiness,
  GatewayUsage,
} from './deps.js';
export { defaultRetryPolicy, type RetryOptions, type RetryPolicy } from './upstream-attempts.js';
export { routeAccess, type RouteAccess } from './route-access.js';
export { apiBases, openAIBaseUrlOf, type ApiBase } from './api-bases.js';
export { mcpPath, type GatewayMcpHub } from './mcp-route.js';
export { countTokenGroups } from './usage-estimate.js';
