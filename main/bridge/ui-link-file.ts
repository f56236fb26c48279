// How a second process finds the browser UI's sign-in link: `switchyard serve` writes it to a file in the data
// dir (0600, like every file there, which already holds the chat history and the file secret store), and removes
// it when it stops; `switchyard ui` reads it. The token never goes to a log: only this file and the printed line
// carry it.

import fs from 'node:fs';
import path from 'node:path';
import { privateFileMode } from '../files/index.js';

export const uiLinkFileName = 'ui-link.json';

export interface UiLink {
  /** The sign-in link, `http://127.0.0.1:7420/?token=…`. */
  url: string;
  /** The serve process that wrote it. */
  pid: number;
}

export function uiLinkPath(dataDir: string): string {
  return path.join(dataDir, uiLinkFileName);
}

/**
 * Writes the link; the function it answers removes the file again, unless another serve has replaced it since.
 * Synchronous and without fsync: serve writes it between listening and taking over Ctrl+C, and a link outlives
 * its server only as a stale file, which `switchyard ui` recognizes. The rename keeps a reader from seeing half.
 */
export function writeUiLink(dataDir: string, url: string): () => void {
  const filePath = uiLinkPath(dataDir);
  const text = `${JSON.stringify({ url, pid: process.pid } satisfies UiLink)}\n`;
  const tempPath = `${filePath}.${process.pid}.tmp`;
  fs.writeFileSync(tempPath, text, { mode: privateFileMode });
  fs.renameSync(tempPath, filePath);
  return () => {
    try {
      if (fs.readFileSync(filePath, 'utf8') === text) fs.unlinkSync(filePath);
    } catch {
      // Gone already: nothing to remove.
    }
  };
}

/** The link a running serve wrote, or null when there is none (or the file is damaged). */
export function readUiLink(dataDir: string): UiLink | null {
  let text: string;
  try {
    text = fs.readFileSync(uiLinkPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<UiLink>;
    if (typeof parsed.url !== 'string' || !URL.canParse(parsed.url)) return null;
    return { url: parsed.url, pid: typeof parsed.pid === 'number' ? parsed.pid : 0 };
  } catch {
    return null;
  }
}
