import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from './bundle-manifest.js';
import { bundleInputs, checkValues, fillMcpConfig } from './bundle-values.js';
import { bundleManifest } from './test-support.js';

const manifest = parseManifest(
  new TextEncoder().encode(
    JSON.stringify(
      bundleManifest({
        server: {
          type: 'node',
          mcp_config: {
            command: 'node',
            args: ['${__dirname}/server/index.js', '${user_config.folders}', '--limit=${user_config.limit}'],
            env: { NOTES_VERBOSE: '${user_config.verbose}', NOTES_TOKEN: '${user_config.token}' },
            platform_overrides: { win32: { command: 'node.exe' } },
          },
        },
        user_config: {
          folders: { type: 'directory', title: 'Folders', multiple: true, required: true, default: ['${HOME}'] },
          limit: { type: 'number', title: 'Limit', min: 1, max: 100, default: 10 },
          verbose: { type: 'boolean', title: 'Verbose' },
          token: { type: 'string', title: 'Token', sensitive: true },
        },
      }),
    ),
  ),
);
const inputs = bundleInputs(manifest);

describe('bundle user_config', () => {
  it('fills defaults with the system folders, expands a multiple setting into one argument per value', () => {
    expect(inputs.find((input) => input.key === 'folders')?.default).toEqual([os.homedir()]);
    const checked = checkValues(inputs, { folders: [os.tmpdir(), os.homedir()], verbose: ['yes'] });
    expect(checked).toEqual({
      values: { folders: [os.tmpdir(), os.homedir()], limit: ['10'], verbose: ['true'] },
      missing: [],
      problems: [],
    });
    const folder = path.join(os.tmpdir(), 'bundle');
    expect(fillMcpConfig(manifest, folder, checked.values, 'linux')).toEqual({
      command: 'node',
      args: [`${folder}/server/index.js`, os.tmpdir(), os.homedir(), '--limit=10'],
      // An optional setting left empty leaves its variable out.
      env: { NOTES_VERBOSE: 'true' },
    });
    expect(fillMcpConfig(manifest, folder, checked.values, 'win32').command).toBe('node.exe');
  });

  it('checks values against their declared types, bounds and counts', () => {
    const checked = checkValues(inputs, {
      folders: [path.join(os.tmpdir(), 'no-such-folder-for-a-bundle')],
      limit: ['500'],
      verbose: ['maybe', 'no'],
      colour: ['blue'],
    });
    expect(checked.problems).toEqual([
      'colour: the bundle has no such setting (it declares: folders, limit, verbose, token).',
      `folders: ${path.join(os.tmpdir(), 'no-such-folder-for-a-bundle')} is not an existing directory.`,
      'limit: must be at most 100.',
      'verbose: takes one value, got 2.',
    ]);
    expect(
      checkValues(bundleInputs({ ...manifest, user_config: { key: { type: 'string', required: true } } }), {}).missing,
    ).toMatchObject([{ key: 'key', required: true }]);
  });
});
