// A bundle's user_config: what it asks for (each declared setting, its default with the mcpb placeholders filled),
// the values a person gave checked against their declared types, and server.mcp_config with `${__dirname}`,
// `${user_config.KEY}` and the system folders filled — as the mcpb spec reads them: an argument that is exactly
// `${user_config.KEY}` of a `multiple` setting becomes one argument per value; booleans are "true" / "false".

import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BundleInput } from '../../../shared/mcp/bundle-types.js';
import type { BundleManifest } from './bundle-manifest.js';

export type { BundleInput };

/** Values by setting, each a list (one item unless the setting is `multiple`), checked and normalized. */
export type BundleValues = Record<string, string[]>;

export interface CheckedValues {
  values: BundleValues;
  /** Required settings with no value (and no default). */
  missing: BundleInput[];
  /** Values that do not fit their declared type, one sentence each. */
  problems: string[];
}

/** `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}`, `${pathSeparator}` and `${/}`, as the spec names them. */
export function systemPlaceholders(home = os.homedir()): Record<string, string> {
  return {
    HOME: home,
    DESKTOP: path.join(home, 'Desktop'),
    DOCUMENTS: path.join(home, 'Documents'),
    DOWNLOADS: path.join(home, 'Downloads'),
    pathSeparator: path.sep,
    '/': path.sep,
  };
}

export function bundleInputs(manifest: BundleManifest): BundleInput[] {
  const placeholders = systemPlaceholders();
  return Object.entries(manifest.user_config ?? {}).map(([key, option]) => {
    const defaults = option.default === undefined ? [] : [option.default].flat().map(String);
    return {
      key,
      type: option.type,
      title: option.title ?? key,
      ...(option.description ? { description: option.description } : {}),
      required: option.required === true,
      multiple: option.multiple === true,
      sensitive: option.sensitive === true,
      ...(defaults.length > 0 ? { default: defaults.map((value) => fillText(value, placeholders)) } : {}),
      ...(option.min !== undefined ? { min: option.min } : {}),
      ...(option.max !== undefined ? { max: option.max } : {}),
    };
  });
}

/** The given values (defaults where none was given) checked against their settings; unknown keys are problems. */
export function checkValues(inputs: BundleInput[], given: BundleValues): CheckedValues {
  const checked: CheckedValues = { values: {}, missing: [], problems: [] };
  const known = new Set(inputs.map((input) => input.key));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) {
      const declared = inputs.length > 0 ? `it declares: ${inputs.map((input) => input.key).join(', ')}` : 'none';
      checked.problems.push(`${key}: the bundle has no such setting (${declared}).`);
    }
  }
  for (const input of inputs) {
    const raw = (given[input.key] ?? input.default ?? []).map((value) => value.trim()).filter((value) => value !== '');
    if (raw.length === 0) {
      if (input.required) checked.missing.push(input);
      continue;
    }
    if (raw.length > 1 && !input.multiple) {
      checked.problems.push(`${input.key}: takes one value, got ${raw.length}.`);
      continue;
    }
    const values: string[] = [];
    for (const value of raw) {
      const normalized = normalizeValue(input, value);
      if (normalized.problem) checked.problems.push(`${input.key}: ${normalized.problem}`);
      else values.push(normalized.value);
    }
    checked.values[input.key] = values;
  }
  return checked;
}

function normalizeValue(input: BundleInput, value: string): { value: string; problem?: string } {
  switch (input.type) {
    case 'number': {
      const number = Number(value);
      if (!Number.isFinite(number)) return { value, problem: `expected a number, got ${JSON.stringify(value)}.` };
      if (input.min !== undefined && number < input.min) return { value, problem: `must be at least ${input.min}.` };
      if (input.max !== undefined && number > input.max) return { value, problem: `must be at most ${input.max}.` };
      return { value: String(number) };
    }
    case 'boolean': {
      const lower = value.toLowerCase();
      if (['true', 'yes', 'y', '1'].includes(lower)) return { value: 'true' };
      if (['false', 'no', 'n', '0'].includes(lower)) return { value: 'false' };
      return { value, problem: `expected true or false, got ${JSON.stringify(value)}.` };
    }
    case 'directory':
    case 'file': {
      const full = path.resolve(value.startsWith('~/') ? path.join(os.homedir(), value.slice(2)) : value);
      const found = statSync(full, { throwIfNoEntry: false });
      const fits = input.type === 'directory' ? found?.isDirectory() : found?.isFile();
      return fits ? { value: full } : { value, problem: `${full} is not an existing ${input.type}.` };
    }
    default:
      return { value };
  }
}

export interface McpConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** server.mcp_config for this platform (its platform_overrides applied) with every placeholder filled. */
export function fillMcpConfig(
  manifest: BundleManifest,
  folder: string,
  values: BundleValues,
  platform: string = process.platform,
): McpConfig {
  const { platform_overrides: overrides, ...base } = manifest.server.mcp_config;
  const override = overrides?.[platform];
  const config = {
    command: override?.command ?? base.command,
    args: override?.args ?? base.args,
    env: override?.env ?? base.env,
  };
  const text = { ...systemPlaceholders(), __dirname: folder };
  const lists: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(values)) lists[`user_config.${key}`] = value;
  const fill = (value: string) => fillText(value, text, lists);
  const filled: McpConfig = { command: fill(config.command) };
  if (config.args) {
    filled.args = config.args.flatMap((arg) => {
      const whole = /^\$\{(user_config\.[^}]+)\}$/.exec(arg);
      return whole ? (lists[whole[1]!] ?? []) : [fill(arg)];
    });
  }
  if (config.env) {
    const env = Object.entries(config.env).flatMap(([name, value]) => {
      const whole = /^\$\{(user_config\.[^}]+)\}$/.exec(value);
      // An optional setting left empty leaves its variable out rather than setting it to "".
      if (whole && !lists[whole[1]!]) return [];
      return [[name, fill(value)] as const];
    });
    filled.env = Object.fromEntries(env);
  }
  return filled;
}

/** Fills `${NAME}` from `text`, and `${user_config.KEY}` inside a longer string with its values joined by ",". */
function fillText(value: string, text: Record<string, string>, lists: Record<string, string[]> = {}): string {
  return value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name in text) return text[name]!;
    if (name.startsWith('user_config.')) return (lists[name] ?? []).join(',');
    return whole;
  });
}
