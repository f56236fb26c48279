// `<data-dir>/mcp_settings.json`: read leniently (a malformed file is one clear problem and the app goes on with
// no servers), written atomically. Edits go through the raw JSON object, so fields we do not know (other apps'
// settings, comments-as-fields) survive every write.

import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { privateDirMode, writeFileAtomic } from '../files/index.js';
import { parseSettings, type ParsedSettings } from './settings-schema.js';

export const settingsFileName = 'mcp_settings.json';

export type RawSettings = Record<string, unknown> & { mcpServers?: Record<string, unknown> };

export interface SettingsFile extends ParsedSettings {
  path: string;
  /** The file's text as read; the watcher compares it to skip events that changed nothing. */
  text: string;
  /** Unset when the file is not valid JSON (then `problems` says why). */
  raw?: RawSettings;
}

const emptySettingsText = `${JSON.stringify({ mcpServers: {} }, null, 2)}\n`;

export function settingsFilePath(dataDir: string): string {
  return path.join(dataDir, settingsFileName);
}

/** Reads the settings, creating `{ "mcpServers": {} }` when there is no file yet. */
export async function readSettingsFile(dataDir: string): Promise<SettingsFile> {
  const filePath = settingsFilePath(dataDir);
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      return { path: filePath, text: '', entries: [], problems: [fileProblem(`cannot be read: ${errorText(error)}`)] };
    }
    await mkdir(dataDir, { recursive: true, mode: privateDirMode });
    await writeFileAtomic(filePath, emptySettingsText);
    text = emptySettingsText;
  }
  return parseSettingsText(filePath, text);
}

export function parseSettingsText(filePath: string, text: string): SettingsFile {
  let raw: unknown;
  try {
    // A BOM is what Notepad adds; JSON.parse rejects it.
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { path: filePath, text, entries: [], problems: [fileProblem(describeJsonError(text, error))] };
  }
  const parsed = parseSettings(raw);
  const isObject = raw !== null && typeof raw === 'object' && !Array.isArray(raw);
  return { path: filePath, text, ...parsed, ...(isObject ? { raw: raw as RawSettings } : {}) };
}

/**
 * A read-modify-write of the raw settings. `change` edits the object in place (or returns a new one); the
 * result is written atomically. Refuses to touch a file that is not valid JSON rather than replace it.
 */
export async function updateSettingsFile(
  dataDir: string,
  change: (raw: RawSettings) => RawSettings | void,
): Promise<RawSettings> {
  const current = await readSettingsFile(dataDir);
  if (!current.raw) {
    throw new Error(`${current.path} ${current.problems[0]?.message ?? 'is not valid'}; fix it by hand first.`);
  }
  const raw = structuredClone(current.raw);
  const changed = change(raw) ?? raw;
  await writeFileAtomic(current.path, `${JSON.stringify(changed, null, 2)}\n`);
  return changed;
}

/** Why `text` is not JSON, with the line and column people look for. */
export function describeJsonError(text: string, error: unknown): string {
  const message = errorText(error);
  // Node reports "… in JSON at position N"; people look for a line and a column.
  const position = /position (\d+)/.exec(message);
  if (!position) return `is not valid JSON: ${message}`;
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `is not valid JSON (line ${line}, column ${column}): ${message}`;
}

function fileProblem(message: string) {
  return { path: settingsFileName, message, severity: 'error' as const };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
