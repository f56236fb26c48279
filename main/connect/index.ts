// Points agent tools (Codex, Claude Code, Gemini CLI, opencode, Qwen Code, Continue) at the gateway: used by
// `switchyard connect` and the Gateway screen's "Connect a tool" panel.

export { ConnectError } from './connect-error.js';
export {
  gatewayOrigin,
  keyPlaceholder,
  ToolConnections,
  type ConnectKeys,
  type ConnectRequest,
  type ToolConnectionsOptions,
} from './connections.js';
export { connectTools, findTool } from './tools.js';
export type { ToolDefinition } from './tool-definition.js';
