// Sets variables in a dotenv file (`KEY=value` lines), as Codex, Gemini CLI and Qwen Code load them at start:
// a line that sets the variable is replaced where it stands, a new one is appended, and every other line —
// comments, blank lines, other variables — stays as it was.

import { ConnectError } from './connect-error.js';
import type { FileEdit } from './tool-definition.js';

const namePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Values that every dotenv reader takes unquoted. */
const plainValue = /^[\w./:@+-]*$/;

/** The edit that sets `values` in the dotenv file at `file`: the tools' key goes there, so it holds a secret. */
export function dotenvEdit(file: string, values: Readonly<Record<string, string>>): FileEdit {
  return {
    path: file,
    keys: Object.keys(values),
    holdsSecret: true,
    apply: (current) => setDotenvValues(current, values),
  };
}

export function setDotenvValues(current: string | null, values: Readonly<Record<string, string>>): string {
  const lines = current === null || current === '' ? [] : current.replace(/\r?\n$/, '').split(/\r?\n/);
  const newline = current?.includes('\r\n') ? '\r\n' : '\n';
  const pending = new Map(Object.entries(values));
  for (const [name, value] of pending) {
    if (!namePattern.test(name)) throw new ConnectError(`"${name}" is not a variable name.`);
    if (/[\r\n]/.test(value)) throw new ConnectError(`The value of ${name} may not span lines.`);
  }
  const result = lines.map((line) => {
    const name = assignedName(line);
    if (name === null || !pending.has(name)) return line;
    const assignment = `${name}=${quote(pending.get(name)!)}`;
    pending.delete(name);
    return assignment;
  });
  for (const [name, value] of pending) result.push(`${name}=${quote(value)}`);
  return result.join(newline) + newline;
}

/** The values a dotenv text sets (for tests and checks; last assignment wins, as the loaders do). */
export function readDotenvValues(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const name = assignedName(line);
    if (name === null) continue;
    const raw = line.slice(line.indexOf('=') + 1).trim();
    values[name] = raw.startsWith('"') && raw.endsWith('"') ? (JSON.parse(raw) as string) : raw;
  }
  return values;
}

function assignedName(line: string): string | null {
  return /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1] ?? null;
}

function quote(value: string): string {
  return plainValue.test(value) ? value : JSON.stringify(value);
}
