// `switchyard mcp login|logout`: a remote server's OAuth sign-in, kept in the secret store. A login counts only
// once a request with the new token worked; a server that then wants a wider scope gets a new browser sign-in
// for it (step-up), a bounded number of times.

import type { Command } from 'commander';
import { requireServer, withManager } from './mcp-manager-run.js';
import { openInBrowser } from './open-in-browser.js';
import type { Output } from './output.js';
import { readSecretFromEnv } from './read-secret.js';
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
    .option(
      '--client-id <id>',
      'a client registered by hand with the authorization server, for servers without dynamic registration ' +
        '(kept in the entry as oauth.clientId)',
    )
    .option('--client-secret-env <var>', "that client's secret, read from this environment variable (to the keychain)")
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (server: string, options: LoginOptions) =>
      withManager(
        { dataDir: options.dataDir, output },
        async (manager) => {
          await requireServer(manager, server);
          if (options.clientSecretEnv !== undefined && options.clientId === undefined) {
            throw new Error('--client-secret-env needs --client-id: the id of the client the secret belongs to.');
          }
          if (options.clientId !== undefined) {
            const secret =
              options.clientSecretEnv === undefined ? undefined : readSecretFromEnv(options.clientSecretEnv);
            await manager.setOAuthClient(server, options.clientId, secret);
          }
          const openAuthorizationUrl = async (url: URL) => {
            output.err(`To sign in to ${server}, open this link in a browser on this machine:\n  ${url.href}`);
            if (!options.browser) return;
            await openInBrowser(url.href).then(
              () => output.err('(opened in your browser; waiting for it to come back)'),
              (error: Error) => output.err(`warning: ${error.message}; open the link yourself.`),
            );
          };
          const snapshot = await manager.signIn(server, { openAuthorizationUrl, maxAuthorizations: 3 });
          if (snapshot.state !== 'connected' && snapshot.state !== 'disabled') {
            throw new Error(`Signed in, but ${server} did not connect: ${snapshot.message ?? snapshot.state}`);
          }
          const tools = snapshot.state === 'connected' ? `; ${snapshot.toolCount} tools` : '';
          output.out(`Signed in to ${server} (${snapshot.state}${tools}).`);
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

interface LoginOptions {
  browser: boolean;
  clientId?: string;
  clientSecretEnv?: string;
  dataDir?: string;
}
