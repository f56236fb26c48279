// The chat: conversations, the tool loop, and how it reaches the gateway and the MCP tools.

export { ChatService, type ChatServiceOptions } from './chat-service.js';
export { defaultMaxSteps } from './chat-turns.js';
export { deniedToolResult, stoppedToolResult } from './tool-calls.js';
export { ChatError } from './chat-error.js';
export { ChatCompare, type ChatCompareOptions } from './compare.js';
export { ChatKey, chatKeyAccount, chatKeyName, type ChatKeyIssuer } from './chat-key.js';
export { createMcpChatTools, type ChatMcp, type ChatTools, type ToolOutcome, type ToolTarget } from './chat-tools.js';
export {
  chatAppTitle,
  createHttpChatGateway,
  type ChatGateway,
  type HttpChatGatewayOptions,
} from './gateway-client.js';
export { toModelOption, toModelOptions } from './model-options.js';
export { createGatewaySampling, samplingAppTitle, toChatRequest } from './mcp-sampling.js';
