// "Connect a tool": what main answers about pointing an agent tool (Codex, Claude Code…) at the gateway, for the
// CLI's `switchyard connect` and the Gateway screen's panel alike. The tool ids are the names of the keys connect
// creates, so Activity shows each tool's spend under its own name.

/** Adding a tool: its id here and its definition in main/connect/tools.ts. */
export const connectToolIds = [
  'codex',
  'claude-code',
  'gemini-cli',
  'opencode',
  'qwen-code',
  'continue',
  // MCP clients: given the MCP hub (`switchyard mcp serve`), which needs no key.
  'claude-desktop',
  'cursor',
  'vscode',
  'cline',
] as const;
export type ConnectToolId = (typeof connectToolIds)[number];

export interface ConnectToolInfo {
  id: ConnectToolId;
  name: string;
  /** False when the tool only works with a model named in its config (it lists models rather than sending its own). */
  modelOptional: boolean;
  connected: boolean;
  /** The model connect wrote, or null (none, or not connected). */
  model: string | null;
  /** The id of the key connect created for it, while connected. */
  keyId: string | null;
  /** The files connect changes, connected or not. */
  files: string[];
  /** Where the tool documents these settings. */
  docs: string[];
}

export interface ConnectFileChange {
  path: string;
  /** The file did not exist before connect (undo removes it). */
  created: boolean;
  /** Where the file as it was before the first connect is kept; null when it did not exist. */
  backupPath: string | null;
  /** What connect set in it, as the tool's docs name them (`model_providers.switchyard.base_url`, `env.X`). */
  keys: string[];
  /** The file holds the key's secret and is readable by this user only (0600). */
  holdsSecret: boolean;
}

export interface ConnectResult {
  tool: ConnectToolId;
  name: string;
  /** Null for an MCP client, which gets the hub over stdio and no key. */
  keyId: string | null;
  keyName: string | null;
  /** The key of the earlier connect, deleted now that the new one is in place. */
  replacedKeyId: string | null;
  files: ConnectFileChange[];
  /** What the person must still do (restart the tool, alias its model names…). */
  notes: string[];
}

export interface ConnectPreviewFile {
  path: string;
  /** What connect would add to the file (the whole file when it does not exist yet), key as a placeholder. */
  text: string;
}

export interface ConnectPreview {
  tool: ConnectToolId;
  name: string;
  files: ConnectPreviewFile[];
  /** What stands in for the key in `files`. */
  keyPlaceholder: string;
  notes: string[];
}

export interface ConnectUndoFile {
  path: string;
  /**
   * - `restored`: the backup is back in place, byte for byte.
   * - `removed`: connect had created the file; it is gone.
   * - `backup-missing`: the backup was deleted; the file was left as it is.
   */
  action: 'restored' | 'removed' | 'backup-missing';
  /** Where the file's content went when it had been edited since connect (nothing of it is lost). */
  savedAs: string | null;
}

export interface ConnectUndoResult {
  tool: ConnectToolId;
  name: string;
  /** False: there was nothing to undo. */
  wasConnected: boolean;
  files: ConnectUndoFile[];
  deletedKeyId: string | null;
}
