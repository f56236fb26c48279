export { createGateway, type Gateway, type GatewayOptions } from './create-gateway.js';
export type { GatewayDeps, GatewayKeys, GatewayUsage } from './deps.js';
