// From a registry's server.json to an mcp_settings.json entry, as a pure function: which package or remote to use,
// which values the person must give (environment variables, arguments, headers and the `{curly}` variables inside
// them), and the entry those values make, version pinned. The CLI's `mcp install`, the Discover view, and later
// install links and bundles all plan through here; nothing in this file reads a file, the network or the PATH.
//
// The rule for choosing: an npm package (run with npx), else a PyPI one (uvx), else an OCI image (docker), else the
// first remote. Each in the document's order; `--package`/`--remote` style choices can pass another option.

import type { InstallInput, RunsWith } from '../../../shared/mcp/registry-types.js';
import type {
  RegistryArgument,
  RegistryInput,
  RegistryKeyValueInput,
  RegistryPackage,
  ServerJson,
} from './server-json.js';

export type InstallOption = { kind: 'package'; index: number } | { kind: 'remote'; index: number };

/** Where an installed entry came from: kept in the entry (others ignore the field), read for updates. */
export interface InstallSource {
  registry: string;
  name: string;
  version: string;
  /** The arguments' values as given (never a secret's), so that an update can build the same command again. */
  arguments?: Record<string, string>;
}

export interface InstallPlan {
  /** The mcp_settings.json entry, `source` included. */
  entry: Record<string, unknown>;
  /** The program that must be on the PATH (npx, uvx, docker); unset for a remote. */
  program?: string;
  /** Required values not given and without a default: nothing should be written while any is left. */
  missing: InstallInput[];
}

/** Could not plan: no usable package, a version not pinned, a transport we cannot run. */
export class InstallPlanError extends Error {
  override readonly name = 'InstallPlanError';
}

const runsWithRegistryType: Record<string, RunsWith> = {
  npm: 'npx',
  pypi: 'uvx',
  oci: 'docker',
  mcpb: 'mcpb',
  nuget: 'dnx',
};
const preference: RunsWith[] = ['npx', 'uvx', 'docker'];

export function packageRunsWith(registryPackage: RegistryPackage): RunsWith {
  return runsWithRegistryType[registryPackage.registryType] ?? 'other';
}

/** Every way the server can run, packages first, each once. */
export function serverRunsWith(server: ServerJson): RunsWith[] {
  const kinds = (server.packages ?? []).map(packageRunsWith);
  if ((server.remotes ?? []).length > 0) kinds.push('remote');
  return [...new Set(kinds)];
}

/** Whether any value the server declares is a secret (an API key, a token). */
export function serverNeedsSecrets(server: ServerJson): boolean {
  const slots = [
    ...(server.packages ?? []).flatMap((pkg) => [
      ...(pkg.environmentVariables ?? []),
      ...(pkg.packageArguments ?? []),
      ...(pkg.runtimeArguments ?? []),
    ]),
    ...(server.remotes ?? []).flatMap((remote) => [
      ...(remote.headers ?? []),
      ...Object.values(remote.variables ?? {}),
    ]),
  ];
  return slots.some((slot) => slot.isSecret === true || Object.values(slotVariables(slot)).some((v) => v.isSecret));
}

/** The option the rule picks (see the file's opening), or undefined when nothing here can be installed. */
export function chooseInstallOption(server: ServerJson): InstallOption | undefined {
  const packages = server.packages ?? [];
  for (const runsWith of preference) {
    const index = packages.findIndex((pkg) => packageRunsWith(pkg) === runsWith && isLocalProcess(pkg));
    if (index >= 0) return { kind: 'package', index };
  }
  if ((server.remotes ?? []).length > 0) return { kind: 'remote', index: 0 };
  return undefined;
}

/** What the chosen option runs with, in words for a message: `npx`, `remote`… */
export function optionRunsWith(server: ServerJson, option: InstallOption): RunsWith {
  return option.kind === 'remote' ? 'remote' : packageRunsWith(packageOf(server, option));
}

/** The values the person may give for this option, in the order the document declares them. */
export function installInputs(server: ServerJson, option: InstallOption): InstallInput[] {
  const inputs: InstallInput[] = [];
  const add = (input: InstallInput) => {
    if (!inputs.some((known) => known.key === input.key && known.kind === input.kind)) inputs.push(input);
  };
  for (const slot of slotsOf(server, option)) {
    const variables = slotVariables(slot.declared);
    if (slot.declared.value != null) {
      for (const [name, variable] of Object.entries(variables)) {
        if (slot.declared.value.includes(`{${name}}`))
          add(inputFrom(name, slot.kind, variable, slot.declared.isSecret));
      }
    } else if (slot.key) {
      add(inputFrom(slot.key, slot.kind, slot.declared));
    }
  }
  return inputs;
}

/**
 * The entry for `values` (keyed as installInputs names them). Values are used as given: each becomes one argument
 * or one variable's value, never read by a shell, so `; rm -rf ~` stays those characters.
 */
export function planInstall(
  server: ServerJson,
  option: InstallOption,
  values: Record<string, string>,
  source: Pick<InstallSource, 'registry'>,
): InstallPlan {
  const inputs = installInputs(server, option);
  const valueOf = (input: InstallInput) => nonEmpty(values[input.key]) ?? input.default;
  const missing = inputs.filter((input) => input.required && valueOf(input) === undefined);
  const filled = Object.fromEntries(
    inputs.flatMap((input) => {
      const value = valueOf(input);
      return value === undefined ? [] : [[input.key, value]];
    }),
  ) as Record<string, string>;
  const resolve = (slot: Slot): string | undefined => {
    if (slot.declared.value != null) return substitute(slot.declared.value, filled);
    return slot.key ? (filled[slot.key] ?? undefined) : undefined;
  };
  // What the person gave (a default is not: a newer version's default should apply after an update).
  const argumentValues = Object.fromEntries(
    inputs
      .filter((input) => input.kind === 'arg' && !input.secret && nonEmpty(values[input.key]) !== undefined)
      .map((input) => [input.key, values[input.key]!]),
  );
  const installSource: InstallSource = {
    registry: source.registry,
    name: server.name,
    version: server.version,
    ...(Object.keys(argumentValues).length > 0 ? { arguments: argumentValues } : {}),
  };
  if (option.kind === 'remote') return { entry: remoteEntry(server, option, resolve, installSource), missing };
  const registryPackage = packageOf(server, option);
  const { program, args } = commandFor(registryPackage, resolve);
  const env = Object.fromEntries(
    (registryPackage.environmentVariables ?? []).flatMap((variable) => {
      const value = resolve({ declared: variable, kind: 'env', key: variable.name });
      return value === undefined ? [] : [[variable.name, value]];
    }),
  );
  const entry: Record<string, unknown> = { command: program, args };
  if (Object.keys(env).length > 0) entry.env = env;
  entry.source = installSource;
  return { entry, program, missing };
}

/** Leading dashes off a named argument's flag: `--port` is given as `--arg port=8080`. */
export function argumentKey(argument: RegistryArgument): string | undefined {
  if (argument.type === 'named') return argument.name?.replace(/^-+/, '') || undefined;
  return argument.valueHint ?? undefined;
}

/**
 * `{name}` replaced by the variable's value; a name without one stays as written (the schema's rule). Only the
 * declared template is read for braces: a value put in is never scanned again.
 */
export function substitute(template: string, variables: Record<string, string>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? variables[name]! : whole,
  );
}

interface Slot {
  declared: RegistryKeyValueInput | RegistryArgument | (RegistryInput & { variables?: never });
  kind: InstallInput['kind'];
  /** The input's own key when it takes a value from the person. */
  key: string | undefined;
}

function slotsOf(server: ServerJson, option: InstallOption): Slot[] {
  if (option.kind === 'remote') {
    const remote = remoteOf(server, option);
    const urlVariables: Slot[] = Object.entries(remote.variables ?? {}).map(([name, variable]) => ({
      declared: variable,
      kind: 'arg',
      key: name,
    }));
    return [
      ...urlVariables.filter((slot) => remote.url.includes(`{${slot.key}}`)),
      ...(remote.headers ?? []).map((header): Slot => ({ declared: header, kind: 'header', key: header.name })),
    ];
  }
  const registryPackage = packageOf(server, option);
  const argumentSlot = (argument: RegistryArgument): Slot => ({
    declared: argument,
    kind: 'arg',
    key: argumentKey(argument),
  });
  return [
    ...(registryPackage.runtimeArguments ?? []).map(argumentSlot),
    ...(registryPackage.packageArguments ?? []).map(argumentSlot),
    ...(registryPackage.environmentVariables ?? []).map((variable): Slot => ({
      declared: variable,
      kind: 'env',
      key: variable.name,
    })),
  ];
}

function inputFrom(
  key: string,
  kind: InstallInput['kind'],
  declared: RegistryInput,
  secretSlot?: boolean | null,
): InstallInput {
  return {
    key,
    kind,
    required: declared.isRequired === true,
    secret: declared.isSecret === true || secretSlot === true,
    ...(declared.description ? { description: declared.description } : {}),
    ...(declared.default != null ? { default: declared.default } : {}),
    ...(declared.placeholder ? { placeholder: declared.placeholder } : {}),
    ...(declared.choices && declared.choices.length > 0 ? { choices: declared.choices } : {}),
    ...(declared.format ? { format: declared.format } : {}),
  };
}

/** An input's `{curly}` variables; a plain input (a remote's URL variable) has none. */
function slotVariables(slot: RegistryInput): Record<string, RegistryInput> {
  return (slot as { variables?: Record<string, RegistryInput> | null }).variables ?? {};
}

function commandFor(registryPackage: RegistryPackage, resolve: (slot: Slot) => string | undefined) {
  const argumentsOf = (declared: RegistryArgument[] | null | undefined) =>
    (declared ?? []).flatMap((argument) => {
      const value = resolve({ declared: argument, kind: 'arg', key: argumentKey(argument) });
      if (argument.type === 'positional') return value === undefined ? [] : [value];
      // A named argument: the flag and its value as two words; a flag with no value given is left out.
      return value === undefined ? [] : [argument.name!, value];
    });
  const runtimeArgs = argumentsOf(registryPackage.runtimeArguments);
  const packageArgs = argumentsOf(registryPackage.packageArguments);
  const { identifier } = registryPackage;
  const runsWith = packageRunsWith(registryPackage);
  if (runsWith === 'docker') {
    const image = pinnedImage(identifier, registryPackage.version);
    const envFlags = (registryPackage.environmentVariables ?? []).flatMap((variable) => ['-e', variable.name]);
    return { program: 'docker', args: ['run', '-i', '--rm', ...runtimeArgs, ...envFlags, image, ...packageArgs] };
  }
  const version = pinnedVersion(registryPackage);
  if (runsWith === 'npx')
    return { program: 'npx', args: ['-y', ...runtimeArgs, `${identifier}@${version}`, ...packageArgs] };
  if (runsWith === 'uvx') {
    return {
      program: 'uvx',
      args: [...runtimeArgs, '--from', `${identifier}==${version}`, identifier, ...packageArgs],
    };
  }
  throw new InstallPlanError(
    `Packages of type ${registryPackage.registryType} cannot be installed from the registry yet; ` +
      'install one of its npm, PyPI or OCI packages or a remote instead.',
  );
}

function remoteEntry(
  server: ServerJson,
  option: InstallOption,
  resolve: (slot: Slot) => string | undefined,
  source: InstallSource,
): Record<string, unknown> {
  const remote = remoteOf(server, option);
  if (remote.type !== 'streamable-http' && remote.type !== 'sse') {
    throw new InstallPlanError(`Remote ${remote.url} has transport "${remote.type}"; expected streamable-http or sse.`);
  }
  const variables = Object.fromEntries(
    Object.keys(remote.variables ?? {}).flatMap((name) => {
      const value = resolve({ declared: remote.variables![name]!, kind: 'arg', key: name });
      return value === undefined ? [] : [[name, value]];
    }),
  ) as Record<string, string>;
  const headers = Object.fromEntries(
    (remote.headers ?? []).flatMap((header) => {
      const value = resolve({ declared: header, kind: 'header', key: header.name });
      return value === undefined ? [] : [[header.name, value]];
    }),
  );
  const entry: Record<string, unknown> = {
    type: remote.type === 'sse' ? 'sse' : 'streamableHttp',
    url: substitute(remote.url, variables),
  };
  if (Object.keys(headers).length > 0) entry.headers = headers;
  entry.source = source;
  return entry;
}

function packageOf(server: ServerJson, option: InstallOption): RegistryPackage {
  const registryPackage = server.packages?.[option.index];
  if (!registryPackage) throw new InstallPlanError(`Server "${server.name}" has no package ${option.index + 1}.`);
  if (!isLocalProcess(registryPackage)) {
    throw new InstallPlanError(
      `Package ${registryPackage.identifier} of "${server.name}" serves over ${registryPackage.transport?.type}; ` +
        'only packages that speak stdio can be installed as a local server.',
    );
  }
  return registryPackage;
}

function remoteOf(server: ServerJson, option: InstallOption) {
  const remote = server.remotes?.[option.index];
  if (!remote) throw new InstallPlanError(`Server "${server.name}" has no remote ${option.index + 1}.`);
  return remote;
}

/** A package started as a process speaking stdio (no transport given counts as stdio). */
function isLocalProcess(registryPackage: RegistryPackage): boolean {
  return (registryPackage.transport?.type ?? 'stdio') === 'stdio';
}

/** One exact version: never absent, `latest` or a range, so that what runs cannot change under the person. */
function pinnedVersion(registryPackage: RegistryPackage): string {
  const version = registryPackage.version?.trim();
  if (!version || version === 'latest' || /[\^~*<>=|\s]|\.x(\.|$)/i.test(version)) {
    throw new InstallPlanError(
      `Package ${registryPackage.identifier} has no exact version (${JSON.stringify(registryPackage.version ?? null)}); ` +
        'Switchyard installs pinned versions only.',
    );
  }
  return version;
}

/** `image:tag` or `image@sha256:…` as given; else the package version as the tag. */
function pinnedImage(identifier: string, version: string | null | undefined): string {
  const name = identifier.slice(identifier.lastIndexOf('/') + 1);
  if (identifier.includes('@sha256:')) return identifier;
  if (name.includes(':')) {
    if (name.endsWith(':latest')) throw new InstallPlanError(`Image ${identifier} is not pinned (":latest").`);
    return identifier;
  }
  return `${identifier}:${pinnedVersion({ registryType: 'oci', identifier, version })}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
