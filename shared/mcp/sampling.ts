// How Switchyard answers an MCP server's sampling requests (decision 035): the `sampling` field of the server's
// mcp_settings.json entry. Runtime-neutral: main validates it, the MCP screen edits it.

/**
 * - `ask` (the default): the person approves each request in Switchyard's window; with no window to ask in
 *   (`switchyard mcp serve`, the CLI) the request is declined.
 * - `always`: answered without asking.
 * - `never`: refused.
 */
export const samplingApprovals = ['ask', 'always', 'never'] as const;

export type SamplingApproval = (typeof samplingApprovals)[number];

export const defaultSamplingApproval: SamplingApproval = 'ask';

export interface SamplingSettings {
  /** The model (`provider/model`, or an alias) that answers; unset: sampling is refused until one is chosen. */
  model?: string;
  approval: SamplingApproval;
}
