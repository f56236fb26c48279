// Upstream providers as configured by the user. Their secrets live in the OS keychain, never here.

export const providerKinds = ['openai', 'anthropic', 'google'] as const;
export type ProviderKind = (typeof providerKinds)[number];

export interface ProviderInfo {
  /** The `<provider>` part of `<provider>/<model>`: lowercase letters, digits, `-` and `_`. */
  id: string;
  kind: ProviderKind;
  base_url: string;
  /** Whether a secret is stored for it (the secret itself never leaves main). */
  has_api_key: boolean;
  /** ISO 8601. */
  created_at: string;
}
