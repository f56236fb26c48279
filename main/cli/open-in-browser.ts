// Opens a link in the person's browser, for `ui --open` and `mcp login`. A leaf of the CLI: it imports none of the
// commands that use it.

import { spawn } from 'node:child_process';

/** The command that opens a URL in the default browser: $BROWSER when set, else the platform's opener. */
function browserCommand(url: string): [string, string[]] {
  const browser = process.env.BROWSER?.trim();
  if (browser) return [browser, [url]];
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/** Starts the browser and resolves once it started (or rejects when it could not be run). */
export function openInBrowser(url: string): Promise<void> {
  const [command, args] = browserCommand(url);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', (error) => reject(new Error(`could not run ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
