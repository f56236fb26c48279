// A bundle's manifest.json, the format `@anthropic-ai/mcpb` packs (manifest_version 0.1–0.4, or the older
// dxt_version). Lenient in: fields we do not use (icons, tools, prompts, localization, _meta) are kept unread and new
// ones tolerated. Strict where it matters: what runs (server.type and mcp_config), what it is called (name, version,
// author), where it may run (compatibility) and what it asks for (user_config) — a bad one names the field.

import { z } from 'zod';
import { bundleSettingTypes } from '../../../shared/mcp/bundle-types.js';
import { describeValue } from '../describe-value.js';

const text = z.string({ error: (issue) => `expected a string, got ${describeValue(issue.input)}` });
const nonEmpty = text.min(1, { error: 'must not be empty' });
const flag = z.boolean({ error: (issue) => `expected true or false, got ${describeValue(issue.input)}` });
const number = z.number({ error: (issue) => `expected a number, got ${describeValue(issue.input)}` });
const object = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.looseObject(shape, { error: (issue) => `expected an object, got ${describeValue(issue.input)}` });
const stringArray = z.array(text, {
  error: (issue) => `expected an array of strings, got ${describeValue(issue.input)}`,
});
const stringMap = z.record(z.string(), text, {
  error: (issue) => `expected an object of string values, got ${describeValue(issue.input)}`,
});

export const bundleServerTypes = ['node', 'python', 'binary', 'uv'] as const;
export const bundlePlatforms = ['darwin', 'win32', 'linux'] as const;
const userConfigTypes = bundleSettingTypes;

const serverConfig = { command: nonEmpty, args: stringArray.optional(), env: stringMap.optional() };
const mcpConfig = object({
  ...serverConfig,
  platform_overrides: z
    .record(z.string(), object({ command: nonEmpty.optional(), args: serverConfig.args, env: serverConfig.env }))
    .optional(),
});

const userConfigOption = object({
  type: z.enum(userConfigTypes, {
    error: (issue) => `expected one of ${userConfigTypes.join(', ')}; got ${describeValue(issue.input)}`,
  }),
  title: text.optional(),
  description: text.optional(),
  required: flag.optional(),
  default: z
    .union([text, number, flag, stringArray], {
      error: (issue) =>
        `expected a string, number, true/false or an array of strings; got ${describeValue(issue.input)}`,
    })
    .optional(),
  multiple: flag.optional(),
  sensitive: flag.optional(),
  min: number.optional(),
  max: number.optional(),
});

// The key is what `${user_config.KEY}` names, so it is held to what that placeholder can hold.
const userConfigKey = z.string().regex(/^[A-Za-z0-9_.-]+$/, { error: 'expected letters, digits, "_", "-" or "."' });

const manifestSchema = object({
  manifest_version: text.optional(),
  dxt_version: text.optional(),
  name: nonEmpty.regex(/^[A-Za-z0-9@._/-]+$/, { error: 'expected letters, digits and . _ - / @ only' }),
  display_name: text.optional(),
  version: nonEmpty,
  description: text.optional(),
  author: object({ name: nonEmpty, email: text.optional(), url: text.optional() }),
  server: object({
    type: z.enum(bundleServerTypes, {
      error: (issue) => `expected one of ${bundleServerTypes.join(', ')}; got ${describeValue(issue.input)}`,
    }),
    entry_point: text.optional(),
    mcp_config: mcpConfig,
  }),
  compatibility: object({
    platforms: z
      .array(
        z.enum(bundlePlatforms, {
          error: (issue) => `expected one of ${bundlePlatforms.join(', ')}; got ${describeValue(issue.input)}`,
        }),
      )
      .optional(),
    runtimes: object({ node: text.optional(), python: text.optional() }).optional(),
  }).optional(),
  user_config: z
    .record(userConfigKey, userConfigOption, {
      error: (issue) => `expected an object of settings, got ${describeValue(issue.input)}`,
    })
    .optional(),
}).refine((manifest) => manifest.manifest_version !== undefined || manifest.dxt_version !== undefined, {
  error: 'expected manifest_version (or the older dxt_version)',
  path: ['manifest_version'],
});

export type BundleManifest = z.infer<typeof manifestSchema>;
export type UserConfigOption = z.infer<typeof userConfigOption>;

/** The bundle is not one Switchyard can install (a bad manifest, an unsafe or oversized archive, a bad value). */
export class BundleError extends Error {
  override readonly name = 'BundleError';
}

/** The manifest, or a BundleError naming each bad field (`server.mcp_config.command: must not be empty`). */
export function parseManifest(bytes: Uint8Array): BundleManifest {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new BundleError(`manifest.json is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(the manifest)'}: ${issue.message}`);
  throw new BundleError(`manifest.json is not a valid bundle manifest: ${problems.join('; ')}`);
}
