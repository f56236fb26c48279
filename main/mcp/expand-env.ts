// `${env:VAR}` references (Cline's and VS Code's syntax) let a settings file name secrets without holding them.
// They are expanded when a server starts, from Switchyard's own environment; the file keeps the references.
// `${secret:NAME}` references are expanded in the same pass, from values read out of the secret store beforehand
// (mcp-secrets.ts), so that a value holding `${…}` is never expanded a second time.

import type { ServerConfig } from './settings-schema.js';

const reference = /\$\{(env|secret):([^}]*)\}/g;

export interface Expanded<T> {
  value: T;
  /** Variables that were referenced but not set; each expanded to an empty string. */
  missing: string[];
}

/** `secrets`: the values of the `${secret:…}` references, by name; without it those are left as written. */
export function expandEnvReferences(
  text: string,
  environment: NodeJS.ProcessEnv,
  secrets?: ReadonlyMap<string, string>,
): Expanded<string> {
  const missing: string[] = [];
  const value = text.replace(reference, (match, kind: string, name: string) => {
    if (kind === 'secret') return secrets?.get(name.trim()) ?? match;
    const found = environment[name.trim()];
    if (found === undefined) missing.push(name.trim());
    return found ?? '';
  });
  return { value, missing };
}

/** Expands every string a server is started with: command, args, env values, cwd, url and header values. */
export function expandServerConfig<Config extends ServerConfig>(
  config: Config,
  environment: NodeJS.ProcessEnv,
  secrets?: ReadonlyMap<string, string>,
): Expanded<Config> {
  const missing = new Set<string>();
  const value = mapServerStrings(config, (text) => {
    const expanded = expandEnvReferences(text, environment, secrets);
    for (const name of expanded.missing) missing.add(name);
    return expanded.value;
  });
  return { value, missing: [...missing] };
}

/** The strings a server is started with, each passed through `change`. */
export function mapServerStrings<Config extends ServerConfig>(
  config: Config,
  change: (text: string) => string,
): Config {
  const changeValues = (values: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([key, value]) => [key, change(value)]));
  return config.transport === 'stdio'
    ? {
        ...config,
        command: change(config.command),
        args: config.args.map(change),
        env: changeValues(config.env),
        ...(config.cwd === undefined ? {} : { cwd: change(config.cwd) }),
      }
    : { ...config, url: change(config.url), headers: changeValues(config.headers) };
}
