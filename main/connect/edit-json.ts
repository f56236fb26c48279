// Sets values in a JSON or JSONC settings file through jsonc-parser's edits, the ones VS Code uses for its own
// settings: only the touched members change, so the person's other settings, their order, their comments and
// their formatting stay as they were.

import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { ConnectError } from './connect-error.js';

export type JsonPath = (string | number)[];

const formatting = { insertSpaces: true, tabSize: 2, eol: '\n' };

/** The file's value, or a ConnectError naming the problem: connect never rewrites a file it cannot read. */
export function parseJsonSettings(current: string | null, what: string): unknown {
  if (current === null || current.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(current, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new ConnectError(
      `${what} is not valid JSON (${printParseErrorCode(first.error)} at offset ${first.offset}): fix it, then connect again.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConnectError(`${what} must hold a JSON object: fix it, then connect again.`);
  }
  return value;
}

/** Applies `[path, value]` settings in order (undefined removes the member). */
export function setJsonValues(current: string | null, settings: [JsonPath, unknown][], what: string): string {
  const parsed = parseJsonSettings(current, what);
  for (const [path] of settings) requireContainers(parsed, path, what);
  let text = current === null || current.trim() === '' ? '{}' : current;
  for (const [path, value] of settings) {
    text = applyEdits(text, modify(text, path, value, { formattingOptions: formatting }));
  }
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** Refuses a path through something that is not an object (`"env": "x"` cannot take `env.X`). */
function requireContainers(parsed: unknown, path: JsonPath, what: string): void {
  let node = parsed;
  for (let depth = 0; depth < path.length - 1; depth++) {
    node = (node as Record<string | number, unknown>)[path[depth]!];
    if (node === undefined) return;
    if (typeof node !== 'object' || node === null) {
      throw new ConnectError(
        `"${path.slice(0, depth + 1).join('.')}" in ${what} is not an object: fix it, then connect again.`,
      );
    }
  }
}

/** The object at `path` in a parsed value, or undefined. */
export function objectAt(value: unknown, path: string[]): Record<string, unknown> | undefined {
  let node = value;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node)
    ? (node as Record<string, unknown>)
    : undefined;
}
