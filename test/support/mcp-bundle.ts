// A real MCP bundle for tests: server-everything built into one file (as bundles ship their servers, with their
// dependencies inside) and packed by the `mcpb` CLI around a manifest with a sensitive, required setting and one
// with a default. Built in a temporary folder by each test file; never committed.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleManifest } from '../../main/mcp/bundles/test-support.js';
import { repoRoot } from './cli.js';

export const bin = (name: string) => path.join(repoRoot, 'node_modules/.bin', name);

/** Packs the bundle into `folder`/everything.mcpb and answers its path. */
export function packEverythingBundle(folder: string): string {
  const source = path.join(folder, 'everything');
  const everything = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  execFileSync(bin('esbuild'), [
    everything,
    '--bundle',
    '--platform=node',
    '--format=esm',
    `--outfile=${path.join(source, 'server/index.js')}`,
    '--log-level=warning',
    "--banner:js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  ]);
  const manifest = bundleManifest({
    name: 'everything-bundle',
    display_name: 'Everything',
    version: '1.2.3',
    server: {
      type: 'node',
      entry_point: 'server/index.js',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/index.js', 'stdio'],
        env: { EVERYTHING_API_KEY: '${user_config.api_key}', EVERYTHING_MODE: '${user_config.mode}' },
      },
    },
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=18.0.0' } },
    user_config: {
      api_key: { type: 'string', title: 'API key', description: 'The key', sensitive: true, required: true },
      mode: { type: 'string', title: 'Mode', description: 'How it runs', default: 'fast' },
    },
  });
  fs.writeFileSync(path.join(source, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const bundle = path.join(folder, 'everything.mcpb');
  execFileSync(bin('mcpb'), ['pack', source, bundle], { stdio: 'ignore' });
  return bundle;
}
