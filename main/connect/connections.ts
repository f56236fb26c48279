// Connecting a tool, the same way for every tool: a key named after it, its config files edited where its docs
// say, a backup of each file as it was before the first connect, and an undo that puts every file back byte for
// byte (or removes the files connect created) and deletes the key. What connect did is remembered in
// `connections.json` in the data dir (paths, modes, hashes and key ids; never a secret), so the CLI and the
// desktop app see the same connections and undo works from either.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  connectToolIds,
  type ConnectFileChange,
  type ConnectPreview,
  type ConnectResult,
  type ConnectToolId,
  type ConnectToolInfo,
  type ConnectUndoFile,
  type ConnectUndoResult,
} from '../../shared/bridge/connect-types.js';
import { privateDirMode, privateFileMode, writeFileAtomic } from '../files/index.js';
import { ConnectError } from './connect-error.js';
import { defaultHubCommand } from './mcp-hub-entry.js';
import type { ConnectContext, HubCommand, ToolDefinition } from './tool-definition.js';
import { connectTools, findTool } from './tools.js';

/** What connect needs of the gateway's keys (ApiKeys has it). */
export interface ConnectKeys {
  create(name: string): Promise<{ id: string; key: string }>;
  delete(id: string): Promise<boolean>;
}

export interface ToolConnectionsOptions {
  /** Where connections.json is kept. */
  dataDir: string;
  keys: ConnectKeys;
  /** The home the tools' files are under; tests pass a temporary one. */
  home: string;
  /** CODEX_HOME, XDG_CONFIG_HOME, GEMINI_CLI_HOME. */
  env: Readonly<Record<string, string | undefined>>;
  tools?: readonly ToolDefinition[];
  /** How MCP clients start the hub (default: `switchyard mcp serve` from the PATH). */
  hubCommand?: HubCommand;
}

export interface ConnectRequest {
  /** The gateway's origin or any URL on it (`http://127.0.0.1:7420`, `…/api/v1`). */
  gatewayUrl: string;
  model?: string | null;
}

/** What stands for the key in `--print` output. */
export const keyPlaceholder = 'PASTE_YOUR_SWITCHYARD_KEY';

const manifestSchema = z.object({
  version: z.literal(1),
  tools: z.partialRecord(
    z.enum(connectToolIds),
    z.object({
      /** Null for an MCP client: no key was created. */
      keyId: z.string().nullable(),
      model: z.string().nullable(),
      origin: z.string(),
      connectedAt: z.string(),
      files: z.array(
        z.object({
          path: z.string(),
          existed: z.boolean(),
          mode: z.number().int().nullable(),
          backupPath: z.string().nullable(),
          keys: z.array(z.string()),
          holdsSecret: z.boolean(),
          writtenSha256: z.string(),
        }),
      ),
    }),
  ),
});
type Manifest = z.infer<typeof manifestSchema>;
type ManifestEntry = NonNullable<Manifest['tools'][ConnectToolId]>;
type ManifestFile = ManifestEntry['files'][number];

export class ToolConnections {
  private readonly options: ToolConnectionsOptions;
  private readonly tools: readonly ToolDefinition[];

  constructor(options: ToolConnectionsOptions) {
    this.options = options;
    this.tools = options.tools ?? connectTools;
  }

  private get manifestPath(): string {
    return path.join(this.options.dataDir, 'connections.json');
  }

  list(): ConnectToolInfo[] {
    const manifest = this.readManifest();
    return this.tools.map((tool) => {
      const entry = manifest.tools[tool.id];
      return {
        id: tool.id,
        name: tool.name,
        modelOptional: tool.modelOptional,
        connected: entry !== undefined,
        model: entry?.model ?? null,
        keyId: entry?.keyId ?? null,
        files: entry ? entry.files.map((file) => file.path) : tool.files(this.options),
        docs: tool.docs,
      };
    });
  }

  /** What connect would write, with a placeholder for the key; changes nothing and creates no key. */
  preview(toolName: string, request: ConnectRequest): ConnectPreview {
    const tool = this.tool(toolName);
    const context = this.context(tool, request, keyPlaceholder);
    return {
      tool: tool.id,
      name: tool.name,
      files: tool.edits(context).map((edit) => ({ path: edit.path, text: edit.apply(null) })),
      keyPlaceholder,
      notes: [
        ...tool.notes(context),
        tool.needsKey === false
          ? `Or run \`switchyard connect ${tool.id}\` to have the file edited for you (a backup is kept).`
          : `Put a key where ${keyPlaceholder} stands (switchyard keys create --name ${tool.id}), or run ` +
            `\`switchyard connect ${tool.id}\` to have the key created and the files edited for you.`,
      ],
    };
  }

  /**
   * Creates the tool's key (deleting the one of an earlier connect), edits its files and remembers how to undo
   * it. The secret is answered once, here; the files that hold it are 0600. Nothing changes when a file cannot
   * be edited safely.
   */
  async connect(toolName: string, request: ConnectRequest): Promise<{ result: ConnectResult; secret: string | null }> {
    const tool = this.tool(toolName);
    const manifest = this.readManifest();
    const earlier = manifest.tools[tool.id];
    const trial = tool.edits(this.context(tool, request, keyPlaceholder));
    const currents = await Promise.all(trial.map((edit) => readIfExists(edit.path)));
    trial.forEach((edit, index) => edit.apply(textOf(currents[index]!))); // refuses before anything changes

    const created = tool.needsKey === false ? null : await this.options.keys.create(tool.id);
    const context = this.context(tool, request, created?.key ?? keyPlaceholder);
    const undoWrites: (() => Promise<void>)[] = [];
    try {
      const files: ManifestFile[] = [];
      for (const [index, edit] of tool.edits(context).entries()) {
        const current = currents[index]!;
        const known = earlier?.files.find((file) => file.path === edit.path);
        const record = known ?? (await this.firstRecord(edit.path, current, undoWrites));
        const next = edit.apply(textOf(current));
        const mode = edit.holdsSecret ? privateFileMode : (record.mode ?? 0o644);
        await fsp.mkdir(path.dirname(edit.path), { recursive: true, mode: privateDirMode });
        undoWrites.push(() => putBack(edit.path, current, record.mode));
        await writeWithMode(edit.path, next, mode);
        files.push({ ...record, keys: edit.keys, holdsSecret: edit.holdsSecret, writtenSha256: sha256(next) });
      }
      // Files an earlier connect changed that this one does not (opencode.json became opencode.jsonc) stay
      // remembered, so that undo still restores them.
      for (const file of earlier?.files ?? []) if (!files.some(({ path: p }) => p === file.path)) files.push(file);
      manifest.tools[tool.id] = {
        keyId: created?.id ?? null,
        model: context.model,
        origin: context.origin,
        connectedAt: new Date().toISOString(),
        files,
      };
      await this.writeManifest(manifest);
    } catch (error) {
      for (const undoWrite of undoWrites.reverse()) await undoWrite().catch(() => undefined);
      if (created) await this.options.keys.delete(created.id).catch(() => false);
      throw error;
    }
    const replacedKeyId = earlier?.keyId && (await this.options.keys.delete(earlier.keyId)) ? earlier.keyId : null;
    const entry = manifest.tools[tool.id]!;
    return {
      secret: created?.key ?? null,
      result: {
        tool: tool.id,
        name: tool.name,
        keyId: created?.id ?? null,
        keyName: created ? tool.id : null,
        replacedKeyId,
        files: entry.files.map(toChange),
        notes: tool.notes(context),
      },
    };
  }

  /** Puts every file back as it was before the first connect and deletes the key. Harmless when not connected. */
  async undo(toolName: string): Promise<ConnectUndoResult> {
    const tool = this.tool(toolName);
    const manifest = this.readManifest();
    const entry = manifest.tools[tool.id];
    if (!entry) return { tool: tool.id, name: tool.name, wasConnected: false, files: [], deletedKeyId: null };
    const files: ConnectUndoFile[] = [];
    for (const file of entry.files) files.push(await restore(file));
    const deletedKeyId = entry.keyId && (await this.options.keys.delete(entry.keyId)) ? entry.keyId : null;
    delete manifest.tools[tool.id];
    await this.writeManifest(manifest);
    return { tool: tool.id, name: tool.name, wasConnected: true, files, deletedKeyId };
  }

  private tool(name: string): ToolDefinition {
    const tool = findTool(name, this.tools);
    if (!tool) {
      throw new ConnectError(
        `There is no tool "${name}" to connect. Known tools: ${this.tools.map(({ id }) => id).join(', ')}.`,
      );
    }
    return tool;
  }

  private context(tool: ToolDefinition, request: ConnectRequest, secret: string): ConnectContext {
    const model = validModel(request.model);
    if (model === null && !tool.modelOptional) {
      throw new ConnectError(
        `${tool.name} lists its models in its own config, so it needs one: add --model PROVIDER/MODEL (or an alias).`,
      );
    }
    return {
      home: this.options.home,
      env: this.options.env,
      origin: gatewayOrigin(request.gatewayUrl),
      model,
      secret,
      hubCommand: this.options.hubCommand ?? defaultHubCommand,
    };
  }

  /** The first time connect touches a file: its mode, and a backup when it exists (never overwritten later). */
  private async firstRecord(
    filePath: string,
    current: Buffer | null,
    undoWrites: (() => Promise<void>)[],
  ): Promise<Omit<ManifestFile, 'keys' | 'holdsSecret' | 'writtenSha256'>> {
    if (current === null) return { path: filePath, existed: false, mode: null, backupPath: null };
    const mode = (await fsp.stat(filePath)).mode & 0o777;
    const backupPath = await freePath(`${filePath}.switchyard-backup`);
    await writeWithMode(backupPath, current, privateFileMode);
    undoWrites.push(() => fsp.rm(backupPath, { force: true }));
    return { path: filePath, existed: true, mode, backupPath };
  }

  private readManifest(): Manifest {
    let text: string;
    try {
      text = fs.readFileSync(this.manifestPath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, tools: {} };
      throw error;
    }
    try {
      return manifestSchema.parse(JSON.parse(text));
    } catch {
      throw new ConnectError(
        `${this.manifestPath} is damaged, so connect cannot tell what it changed. Its backups sit next to each ` +
          `file as *.switchyard-backup; move ${this.manifestPath} aside to start afresh.`,
      );
    }
  }

  private async writeManifest(manifest: Manifest): Promise<void> {
    await fsp.mkdir(path.dirname(this.manifestPath), { recursive: true, mode: privateDirMode });
    await writeFileAtomic(this.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

/** `http://127.0.0.1:7420` from any URL on the gateway; a gateway bound to every interface is reached on loopback. */
export function gatewayOrigin(gatewayUrl: string): string {
  let url: URL;
  try {
    url = new URL(gatewayUrl);
  } catch {
    throw new ConnectError(`"${gatewayUrl}" is not a URL; give the gateway's, e.g. http://127.0.0.1:7420.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConnectError(`"${gatewayUrl}" is not an http(s) URL; give the gateway's, e.g. http://127.0.0.1:7420.`);
  }
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

function validModel(model: string | null | undefined): string | null {
  const trimmed = model?.trim() ?? '';
  if (trimmed === '') return null;
  if (trimmed.length > 300 || /[\s"'\\]/.test(trimmed)) {
    throw new ConnectError(`"${trimmed.slice(0, 80)}" is not a model name: use PROVIDER/MODEL or an alias.`);
  }
  return trimmed;
}

function toChange(file: ManifestFile): ConnectFileChange {
  return {
    path: file.path,
    created: !file.existed,
    backupPath: file.backupPath,
    keys: file.keys,
    holdsSecret: file.holdsSecret,
  };
}

async function restore(file: ManifestFile): Promise<ConnectUndoFile> {
  const current = await readIfExists(file.path);
  const editedSince = current !== null && sha256(current) !== file.writtenSha256;
  // The person's edits since connect are kept in a copy: undo never throws work away.
  const keepEdits = async () =>
    editedSince ? await writeCopy(`${file.path}.switchyard-replaced`, current, file.mode) : null;
  if (file.existed) {
    const backup = file.backupPath === null ? null : await readIfExists(file.backupPath);
    if (backup === null) return { path: file.path, action: 'backup-missing', savedAs: null };
    const savedAs = await keepEdits();
    await writeWithMode(file.path, backup, file.mode ?? privateFileMode);
    await fsp.rm(file.backupPath!, { force: true });
    return { path: file.path, action: 'restored', savedAs };
  }
  const savedAs = await keepEdits();
  await fsp.rm(file.path, { force: true });
  return { path: file.path, action: 'removed', savedAs };
}

async function writeCopy(wanted: string, content: Buffer, mode: number | null): Promise<string> {
  const copyPath = await freePath(wanted);
  await writeWithMode(copyPath, content, mode ?? privateFileMode);
  return copyPath;
}

/** Puts a file back as it was before this connect (for a connect that failed half-way). */
async function putBack(filePath: string, previous: Buffer | null, mode: number | null): Promise<void> {
  if (previous === null) await fsp.rm(filePath, { force: true });
  else await writeWithMode(filePath, previous, mode ?? privateFileMode);
}

/** Writes atomically and leaves exactly `mode` (the temp file's mode went through the umask). */
async function writeWithMode(filePath: string, content: string | Buffer, mode: number): Promise<void> {
  await writeFileAtomic(filePath, content, mode);
  if (process.platform !== 'win32') await fsp.chmod(filePath, mode);
}

async function readIfExists(filePath: string): Promise<Buffer | null> {
  try {
    return await fsp.readFile(filePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') throw new ConnectError(`${filePath} is a folder, where the tool expects a file.`);
    throw error;
  }
}

/** `wanted`, or `wanted-2`, `wanted-3`… when something is there already. */
async function freePath(wanted: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const candidate = attempt === 1 ? wanted : `${wanted}-${attempt}`;
    if ((await readIfExists(candidate).catch(() => Buffer.alloc(0))) === null) return candidate;
  }
}

function textOf(content: Buffer | null): string | null {
  return content === null ? null : content.toString('utf8');
}

function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
