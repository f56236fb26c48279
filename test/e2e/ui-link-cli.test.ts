// `switchyard ui [--open]` next to a running `switchyard serve`: it gives the sign-in link of that server (from the
// private link file serve writes), opens it with $BROWSER, and says clearly when no server is running — also when
// a server died and left its file behind. The token appears in nothing but the UI line and the link file.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type RunningServer } from '../support/cli.js';
import { waitFor } from '../support/wait-for.js';

const linkFile = (dataDir: string) => path.join(dataDir, 'ui-link.json');

let dataDir: string;
let server: RunningServer;
let printedLink: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-ui-link-'));
  server = await startServer(['--data-dir', dataDir], { SWITCHYARD_SECRET_STORE: 'file' });
  printedLink = await waitFor(() => /Switchyard UI: (\S+)/.exec(server.stdout())?.[1], { what: 'the UI line' });
}, 60_000);

afterAll(async () => {
  if (server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('switchyard ui', () => {
  it('prints the running server’s sign-in link, which serve keeps in a file only this user can read', async () => {
    const result = await runCli(['ui', '--data-dir', dataDir]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`Switchyard UI: ${printedLink}\n`);
    expect(result.code).toBe(0);
    if (process.platform !== 'win32') expect(fs.statSync(linkFile(dataDir)).mode & 0o777).toBe(0o600);

    const signIn = await fetch(printedLink, { redirect: 'manual' });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get('set-cookie')).toMatch(/^switchyard-ui-\d+=/);
  });

  it('opens the link with $BROWSER and does not print the token', async () => {
    const opened = path.join(dataDir, 'opened.txt');
    const browser = path.join(dataDir, 'fake-browser.sh');
    fs.writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > "${opened}"\n`, { mode: 0o700 });
    const result = await runCli(['ui', '--open', '--data-dir', dataDir], { env: { BROWSER: browser } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Opened the Switchyard UI \(http:\/\/127\.0\.0\.1:\d+\) in your browser\.\n$/);
    expect(result.stdout).toBe('');
    expect(await waitFor(() => fs.existsSync(opened) && fs.readFileSync(opened, 'utf8'), { what: 'the browser' })).toBe(
      printedLink,
    );
  });

  it('prints the link with a warning when the browser cannot be started', async () => {
    const result = await runCli(['ui', '--open', '--data-dir', dataDir], {
      env: { BROWSER: path.join(dataDir, 'no-such-browser') },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^warning: could not run .*no-such-browser.*; open this link yourself:\n$/);
    expect(result.stdout).toBe(`Switchyard UI: ${printedLink}\n`);
  });

  it('keeps the token out of everything serve logged but its UI line', () => {
    const token = new URL(printedLink).searchParams.get('token')!;
    expect(token.length).toBeGreaterThanOrEqual(24);
    expect(server.stdout().split(token)).toHaveLength(2);
    expect(server.stderr()).not.toContain(token);
  });

  it('says how to start a server when the one that wrote the link died, and when none ever ran', async () => {
    const leftBehind = fs.readFileSync(linkFile(dataDir), 'utf8');
    server.child.kill('SIGTERM');
    await server.exited;
    expect(fs.existsSync(linkFile(dataDir)), 'serve removes its link when it stops').toBe(false);

    const none = await runCli(['ui', '--data-dir', dataDir]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(
      `switchyard: No \`switchyard serve\` with the browser UI is running on ${dataDir}. ` +
        'Start it with `switchyard serve` (it prints the link too).\n',
    );

    fs.writeFileSync(linkFile(dataDir), leftBehind, { mode: 0o600 }); // as a killed server leaves it
    const stale = await runCli(['ui', '--data-dir', dataDir]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toMatch(/^switchyard: The `switchyard serve` that wrote .*ui-link\.json no longer answers at/);
    expect(stale.stderr).not.toContain(new URL(printedLink).searchParams.get('token')!);
  });
});
