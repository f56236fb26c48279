// How large a POST /bridge/invoke/<channel> body may be, per channel: about the largest request the contract
// (shared/bridge/contract.ts) accepts, so that no channel whose requests are a few bytes makes the server buffer
// megabytes. Strings count 6 bytes a character, JSON's worst case (`\u0001`); body-limits.test.ts sends the largest
// valid request of each listed channel, so a contract limit raised without this table fails there.

import type { BridgeChannel } from '../../shared/bridge/contract.js';

const kib = 1024;
const mib = 1024 * kib;

/** Ids, names, numbers, a question for a tool: a few KiB at most. */
export const defaultInvokeBodyLimitBytes = 64 * kib;

const invokeBodyLimits: Partial<Record<BridgeChannel, number>> = {
  /**
   * Four images and two PDFs of 5 MiB as base64 data URLs (40 MiB), 200,000 characters of text and eight text
   * files of 100,000 (main then refuses more than 7 MiB of attachments in all, with a message saying so).
   */
  'chat:send': 56 * mib,
  /** The settings file, twice (the text and the text it replaces), each up to 1,000,000 characters. */
  'mcp:save-settings': 12 * mib,
  'mcp:import': 6 * mib,
  /** Unbounded in the contract: one server's entry, and a tool's arguments typed in the UI. */
  'mcp:set-server': mib,
  'mcp:call-tool': mib,
  /** Up to 20 prompt arguments of 10,000 characters. */
  'mcp:get-prompt': 2 * mib,
  /** A conversation file of up to 5,000,000 characters (limits.ts's maxImportChars). */
  'chat:import-conversation': 32 * mib,
  /** A message's new text: up to 200,000 characters. */
  'chat:edit-message': 2 * mib,
  /** A prompt to compare models with: up to 200,000 characters. */
  'chat:compare': 2 * mib,
  /** A system prompt of up to 50,000 characters. */
  'chat:create-conversation': 512 * kib,
  'chat:update-conversation': 512 * kib,
  'chat:save-preset': 512 * kib,
  /** Up to 1,000 allowed models of 300 characters. */
  'keys:create': 2 * mib,
  'keys:update': 2 * mib,
  /** A provider key of up to 8,192 characters and a base URL of up to 2,000. */
  /** A bundle of up to 32 MiB as base64 (about 43 MiB), and its settings: 50 of up to 10 values of 2,000. */
  'mcp:bundle-preview': 56 * mib,
  'mcp:bundle-install': 56 * mib,
  'providers:add': 128 * kib,
  'providers:update': 128 * kib,
};

/** The largest body any channel accepts: the route's own limit. */
export const maxInvokeBodyLimitBytes = Math.max(defaultInvokeBodyLimitBytes, ...Object.values(invokeBodyLimits));

/** The body limit of a channel; unknown names get the default (they are refused after the body anyway). */
export function invokeBodyLimit(channel: string): number {
  return Object.hasOwn(invokeBodyLimits, channel)
    ? invokeBodyLimits[channel as BridgeChannel]!
    : defaultInvokeBodyLimitBytes;
}
