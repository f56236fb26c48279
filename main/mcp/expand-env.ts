// `${env:VAR}` references (Cline's and VS Code's syntax) let a settings file name secrets without holding them.
// They are expanded when a server starts, from Switchyard's own environment; the file keeps the references.

import type { ServerConfig } from './settings-schema.js';

const reference = /\$\{env:([^}]*)\}/g;

export interface Expanded<T> {
  value: T;
  /** Variables that were referenced but not set; each expanded to an empty string. */
  missing: string[];
}

export function expandEnvReferences(text: string, environment: NodeJS.ProcessEnv): Expanded<string> {
  const missing: string[] = [];
  const value = text.replace(reference, (_match, name: string) => {
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
): Expanded<Config> {
  const missing = new Set<string>();
  const expand = (text: string) => {
    const expanded = expandEnvReferences(text, environment);
    for (const name of expanded.missing) missing.add(name);
    return expanded.value;
  };
  const expandValues = (values: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([key, value]) => [key, expand(value)]));
  const value =
    config.transport === 'stdio'
      ? {
          ...config,
          command: expand(config.command),
          args: config.args.map(expand),
          env: expandValues(config.env),
          ...(config.cwd === undefined ? {} : { cwd: expand(config.cwd) }),
        }
      : { ...config, url: expand(config.url), headers: expandValues(config.headers) };
  return { value, missing: [...missing] };
}
