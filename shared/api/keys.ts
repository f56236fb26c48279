// Gateway API keys as the HTTP API, the CLI and the UI show them. The secret appears only in CreatedApiKey.

export interface ApiKeyInfo {
  /** Public identifier, used in DELETE /api-keys/{id}. */
  id: string;
  name: string;
  /** A masked form of the secret, enough to recognise it (e.g. `sk-sy-v1-3f2…9ab`). */
  label: string;
  /** ISO 8601. */
  created_at: string;
  /** ISO 8601, or null when never used. */
  last_used_at: string | null;
}

export interface CreatedApiKey extends ApiKeyInfo {
  /** The secret. Shown once, never stored in clear. */
  key: string;
}
