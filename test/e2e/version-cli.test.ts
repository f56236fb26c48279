// `switchyard --version` and `-V` print the version of package.json (what the app shows) and exit 0, as every CLI
// does, without opening the data folder; the help lists the flag.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../support/cli.js';

const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-version-'));

afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

describe('switchyard --version', () => {
  it.each(['--version', '-V'])('%s prints the version of package.json and exits 0, opening nothing', async (flag) => {
    const dataDir = path.join(parent, `data${flag}`);
    const result = await runCli([flag], { env: { SWITCHYARD_DATA_DIR: dataDir } });
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('is answered by the full program too, after a command name', async () => {
    const result = await runCli(['keys', '--version']);
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it.each([['--help'], ['help']])('`switchyard %s` lists it', async (flag) => {
    const result = await runCli([flag]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}-V, --version +print the version of Switchyard$/m);
  });
});
