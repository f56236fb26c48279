// `switchyard ui [--open]`: the sign-in link of the running `switchyard serve` on this data dir, for a browser tab
// whose link expired (serve restarted, or the page came from a bookmark). Serve writes the link to a private file
// in the data dir (main/bridge/ui-link-file.ts); this checks that the server still answers to it before printing
// or opening it, so a stale file from a server that died never passes for a working link.

import type { Command } from 'commander';
import { resolveDataDir, type App } from '../app/index.js';
import { readUiLink, uiLinkPath } from '../bridge/index.js';
import type { UiSessionStore } from '../store/index.js';
import { addListCommand, addRemoveCommand, type CommandContext } from './command-context.js';
import { openInBrowser } from './open-in-browser.js';
import { dataDirOption } from './shared-options.js';

const checkTimeoutMs = 5_000;

/** Whether a server answers the bridge at this link's origin with its token. */
async function linkWorks(url: URL): Promise<boolean> {
  const token = url.searchParams.get('token') ?? '';
  try {
    const response = await fetch(new URL('/bridge/invoke/app:info', url.origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(checkTimeoutMs),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** A team server's UI sessions; SQLite has none (its UI signs in with the link serve prints). */
function uiSessionsOf(app: App): UiSessionStore {
  if (!app.store.uiSessions) {
    throw new Error('UI sessions exist only on a team server: give --database-url (or SWITCHYARD_DATABASE_URL).');
  }
  return app.store.uiSessions;
}

export function registerUiCommand(program: Command, context: CommandContext): void {
  const { output } = context;
  const ui = program
    .command('ui')
    .description('print (or open) a sign-in link for the browser UI of the running `switchyard serve`')
    .option('--open', 'open the link in the default browser ($BROWSER when set) instead of printing it')
    .addOption(dataDirOption())
    .action(async (options: { open?: boolean; dataDir?: string }) => {
      const dataDir = resolveDataDir(options.dataDir);
      const link = readUiLink(dataDir);
      const start = 'Start it with `switchyard serve` (it prints the link too).';
      if (!link) {
        throw new Error(`No \`switchyard serve\` with the browser UI is running on ${dataDir}. ${start}`);
      }
      const url = new URL(link.url);
      if (!(await linkWorks(url))) {
        throw new Error(
          `The \`switchyard serve\` that wrote ${uiLinkPath(dataDir)} no longer answers at ${url.origin}. ${start}`,
        );
      }
      if (options.open) {
        try {
          await openInBrowser(url.href);
          output.err(`Opened the Switchyard UI (${url.origin}) in your browser.`);
          return;
        } catch (error) {
          output.err(`warning: ${(error as Error).message}; open this link yourself:`);
        }
      }
      output.out(`Switchyard UI: ${url.href}`);
    });

  const sessions = ui
    .command('sessions')
    .description("a team server's browser sign-ins with a management key: list them, or revoke one on every instance");
  addListCommand(sessions, context, {
    name: 'list',
    description: 'sign-ins to the UI, newest first (never their tokens)',
    list: (app) => uiSessionsOf(app).list(),
    empty: 'No one has signed in to the UI with a management key.',
    headers: ['ID', 'KEY', 'SIGNED IN', 'EXPIRES', 'STATE'],
    row: (session) => [
      session.id,
      session.keyId,
      new Date(session.createdAt).toISOString(),
      new Date(session.expiresAt).toISOString(),
      session.revokedAt !== null ? 'revoked' : session.expiresAt <= Date.now() ? 'expired' : 'active',
    ],
  });
  addRemoveCommand(sessions, context, {
    name: 'revoke',
    description: 'end a sign-in at once, on every instance',
    argument: ['<id>', 'the session id (from `switchyard ui sessions list`)'],
    remove: (app, id) => uiSessionsOf(app).revoke(id, Date.now()),
    missing: (id) => `No active UI session has the id "${id}".`,
    removed: (id) => `Revoked UI session ${id}.`,
  });
}
