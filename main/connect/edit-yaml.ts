// Adds one entry to a list in a YAML file (Continue's config.yaml `models`) through the `yaml` package's document
// model, which keeps the person's comments and layout: entries connect wrote before are replaced, the rest stay.

import { isMap, isSeq, parseDocument, YAMLSeq } from 'yaml';
import { ConnectError } from './connect-error.js';

export interface YamlListEntry {
  /** The list's key at the top level. */
  list: string;
  entry: Record<string, string>;
  /** Whether an entry of the list is one an earlier connect wrote. */
  isOurs(entry: unknown): boolean;
  /** Top-level keys a new file needs (Continue's name, version, schema). */
  newFile: Record<string, string>;
}

export function setYamlListEntry(current: string | null, settings: YamlListEntry, what: string): string {
  const document = parseDocument(current ?? '');
  if (document.errors.length > 0) {
    throw new ConnectError(`${what} is not valid YAML (${document.errors[0]!.message}): fix it, then connect again.`);
  }
  if (document.contents === null) {
    for (const [key, value] of Object.entries(settings.newFile)) document.set(key, value);
  } else if (!isMap(document.contents)) {
    throw new ConnectError(`${what} must hold a YAML mapping: fix it, then connect again.`);
  }
  const existing = document.get(settings.list);
  if (existing !== undefined && existing !== null && !isSeq(existing)) {
    throw new ConnectError(`"${settings.list}" in ${what} is not a list: fix it, then connect again.`);
  }
  const list = existing ?? new YAMLSeq();
  list.items = list.items.filter((item) => !settings.isOurs(toJson(item)));
  list.items.push(document.createNode(settings.entry));
  document.set(settings.list, list);
  return document.toString();
}

function toJson(item: unknown): unknown {
  return item !== null && typeof item === 'object' && 'toJSON' in item
    ? (item as { toJSON(): unknown }).toJSON()
    : item;
}
