// The secrets of mcp_settings.json: values kept in the secret store that holds provider keys (the OS keychain, or
// the 0600 file where no keychain answers) and named in the file as `${secret:NAME}`. The MCP code stores and reads
// them only through this: the server form, `mcp import`, a server's start, and the installers to come (registry
// variables marked `isSecret`, bundle `user_config` marked `sensitive`), which store a value and write the
// reference they get back. Messages name a secret, never its value: they reach logs and the screen.

import { maskedSecret } from '../../shared/mcp/secret-fields.js';
import { ServerSetupError } from './start-errors.js';
import { mapServerStrings } from './expand-env.js';
import type { SecretSlots } from './oauth/credential-store.js';
import { referencedSecretNames, secretAccountFor, secretNameProblem, secretReference } from './secret-references.js';
import type { ServerConfig } from './settings-schema.js';

/** The store as the app opened it; `location` says where it is, for messages. */
export type McpSecretStore = SecretSlots & { readonly location?: string };

export class McpSecrets {
  /** `open` is called on first use: a settings file without secrets never touches the keychain. */
  constructor(private readonly open: () => Promise<McpSecretStore>) {}

  /** Stores `value` under `name` (replacing what was there) and answers the reference to write: `${secret:NAME}`. */
  async store(name: string, value: string): Promise<string> {
    checkName(name);
    if (value === '') throw new TypeError(`The secret "${name}" needs a value; delete it to remove it.`);
    await (await this.open()).set(secretAccountFor(name), value);
    return secretReference(name);
  }

  /** The value, or null when none is stored; read afresh, as another process (the CLI) may have changed it. */
  async read(name: string): Promise<string | null> {
    checkName(name);
    const store = await this.open();
    store.invalidate(secretAccountFor(name));
    return store.get(secretAccountFor(name));
  }

  /** False when nothing was stored under `name`. */
  async delete(name: string): Promise<boolean> {
    checkName(name);
    return (await this.open()).delete(secretAccountFor(name));
  }

  /** How the value may be shown again (`••••abcd`), or null when none is stored. */
  async masked(name: string): Promise<string | null> {
    const value = await this.read(name);
    return value === null ? null : maskedSecret(value);
  }

  async location(): Promise<string> {
    return (await this.open()).location ?? 'the secret store';
  }

  /**
   * The values of the `${secret:…}` references of a server about to start, by name. A bad name or a missing value
   * stops the start with a message naming the reference.
   */
  async resolve(names: string[]): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    for (const name of names) {
      const problem = secretNameProblem(name);
      if (problem) throw new ServerSetupError(`${secretReference(name)}: ${problem}.`);
      const value = await this.read(name);
      if (value === null) {
        throw new ServerSetupError(
          `${secretReference(name)} is not in ${await this.location()}: store it again from the server's form ` +
            '(mark the field secret and type the value), or replace the reference.',
        );
      }
      values.set(name, value);
    }
    return values;
  }
}

/** The `${secret:…}` names among the strings a server starts with (command, args, env, cwd, url, headers). */
export function startSecretNames(config: ServerConfig): string[] {
  const names = new Set<string>();
  mapServerStrings(config, (text) => {
    for (const name of referencedSecretNames(text)) names.add(name);
    return text;
  });
  return [...names];
}

/** What a server start needs of its secrets: their values, or an error when it names one with no store to ask. */
export async function resolveStartSecrets(
  config: ServerConfig,
  secrets: McpSecrets | undefined,
): Promise<Map<string, string> | undefined> {
  const names = startSecretNames(config);
  if (names.length === 0) return undefined;
  if (!secrets) {
    throw new ServerSetupError(
      `${names.map(secretReference).join(', ')}: secrets cannot be read here (no secret store was opened).`,
    );
  }
  return secrets.resolve(names);
}

function checkName(name: string): void {
  const problem = secretNameProblem(name);
  if (problem) throw new TypeError(`${problem}.`);
}
