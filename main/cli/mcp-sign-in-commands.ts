// `switchyard mcp login|logout`: a remote server's OAuth sign-in, kept in the secret store.

import type { Command } from 'commander';
import { requireServer, withManager } from './mcp-manager-run.js';
import { openInBrowser } from './open-in-browser.js';
import type { Output } from './output.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';

export function registerMcpSignInCommands(mcp: Command, output: Output): void {
  mcp
    .command('login')
    .description(
      'sign in to a remote server that wants OAuth: opens the sign-in page in your browser (or prints its link) ' +
        'and waits for it to come back; the tokens go to the secret store',
    )
    .argument('<server>', 'the server name in mcp_settings.json')
    .option('--no-browser', 'only print the link (open it on this machine: the page returns to 127.0.0.1)')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, options: { browser: boolean; dataDir?: string }) =>
      withManager(
        { dataDir: options.dataDir, output },
        async (manager) => {
          await requireServer(manager, server);
          const openAuthorizationUrl = async (url: URL) => {
            output.err(`To sign in to ${server}, open this link in a browser on this machine:\n  ${url.href}`);
            if (!options.browser) return;
            await openInBrowser(url.href).then(
              () => output.err('(opened in your browser; waiting for it to come back)'),
              (error: Error) => output.err(`warning: ${error.message}; open the link yourself.`),
            );
          };
          const snapshot = await manager.signIn(server, { openAuthorizationUrl });
          const tools = snapshot.state === 'connected' ? `; ${snapshot.toolCount} tools` : '';
          output.out(`Signed in to ${server} (${snapshot.state}${tools}).`);
          if (snapshot.state !== 'connected' && snapshot.message) output.out(`${server}: ${snapshot.message}`);
        },
        server,
      ),
    );

  mcp
    .command('logout')
    .description("forget a remote server's OAuth sign-in (deletes its tokens from the secret store)")
    .argument('<server>', 'the server name in mcp_settings.json')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, options: { dataDir?: string }) =>
      withManager(
        { dataDir: options.dataDir, output },
        async (manager) => {
          await requireServer(manager, server);
          const removed = await manager.signOut(server);
          output.out(removed ? `Signed out of ${server}.` : `No sign-in was stored for ${server}.`);
        },
        server,
      ),
    );
}
