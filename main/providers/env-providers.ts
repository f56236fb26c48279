// Providers from the gateway's environment, the way the providers' own SDKs and peer tools read it:
// OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY, each with its base-URL override. They live
// in memory only (never written to the database or the keychain); a provider the user configured with the same
// id wins (the registry decides that).

import type { ProviderInfo, ProviderKind } from '../../shared/api/index.js';
import type { ProviderSource } from './registry.js';

interface EnvironmentConvention {
  id: string;
  kind: ProviderKind;
  keyVariable: string;
  /** Base-URL overrides, first set one wins. */
  baseUrlVariables: string[];
  defaultBaseUrl: string;
}

export const environmentConventions: readonly EnvironmentConvention[] = [
  {
    id: 'openai',
    kind: 'openai',
    keyVariable: 'OPENAI_API_KEY',
    baseUrlVariables: ['OPENAI_BASE_URL'],
    defaultBaseUrl: 'https://api.openai.com/v1',
  },
  {
    id: 'anthropic',
    kind: 'anthropic',
    keyVariable: 'ANTHROPIC_API_KEY',
    baseUrlVariables: ['ANTHROPIC_BASE_URL'],
    defaultBaseUrl: 'https://api.anthropic.com',
  },
  {
    id: 'google',
    kind: 'google',
    keyVariable: 'GEMINI_API_KEY',
    baseUrlVariables: ['GEMINI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'],
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  },
  {
    id: 'openrouter',
    kind: 'openai',
    keyVariable: 'OPENROUTER_API_KEY',
    baseUrlVariables: ['OPENROUTER_BASE_URL'],
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
  },
];

export interface EnvironmentProvider {
  info: ProviderInfo;
  apiKey: string;
}

export interface EnvironmentReading {
  providers: EnvironmentProvider[];
  /** One line per variable that was set but unusable (never quoting a key). */
  warnings: string[];
}

/** An absolute http(s) URL without credentials, without its trailing slash; null otherwise. */
function usableBaseUrl(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
  return url.toString().replace(/\/+$/, '');
}

/** The providers `env` defines. Empty values count as unset. */
export function readEnvironmentProviders(
  env: Record<string, string | undefined>,
  createdAt: Date = new Date(),
): EnvironmentReading {
  const providers: EnvironmentProvider[] = [];
  const warnings: string[] = [];
  for (const convention of environmentConventions) {
    const apiKey = env[convention.keyVariable]?.trim();
    if (!apiKey) continue;
    const override = convention.baseUrlVariables
      .map((name) => ({ name, value: env[name]?.trim() }))
      .find((candidate) => candidate.value);
    let baseUrl = convention.defaultBaseUrl;
    if (override?.value) {
      const usable = usableBaseUrl(override.value);
      if (!usable) {
        warnings.push(
          `${override.name} is not an absolute http(s) URL without credentials; provider "${convention.id}" from ` +
            `${convention.keyVariable} is not registered.`,
        );
        continue;
      }
      baseUrl = usable;
    }
    providers.push({
      info: {
        id: convention.id,
        kind: convention.kind,
        base_url: baseUrl,
        has_api_key: true,
        created_at: createdAt.toISOString(),
        source: 'environment',
      },
      apiKey,
    });
  }
  return { providers, warnings };
}

/** A ProviderSource over what the environment defined at start; it never changes afterwards. */
export class EnvironmentProviders implements ProviderSource {
  private readonly providers: ProviderInfo[];
  private readonly keys: ReadonlyMap<string, string>;
  readonly warnings: readonly string[];

  constructor(env: Record<string, string | undefined> = process.env) {
    const reading = readEnvironmentProviders(env);
    this.providers = reading.providers.map((provider) => provider.info);
    this.keys = new Map(reading.providers.map((provider) => [provider.info.id, provider.apiKey]));
    this.warnings = reading.warnings;
  }

  listProviders(): ProviderInfo[] {
    return this.providers;
  }

  async getApiKey(providerId: string): Promise<string | null> {
    return this.keys.get(providerId) ?? null;
  }

  changeVersion(): number {
    return 0;
  }
}
