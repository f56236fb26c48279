// Bundles for tests: a manifest with the fields `mcpb pack` requires, and zips built with fflate (what `mcpb pack`
// itself uses), including the unsafe ones a packer would never write: climbing and absolute paths, symlinks,
// entries that lie about their size.

import { zipSync, type ZipOptions, type Zippable } from 'fflate';

/** An entry's text or bytes, or those with the zip's options for it (Unix mode bits in `attrs`). */
export type BundleEntry = string | Uint8Array | [string | Uint8Array, ZipOptions & { os?: number; attrs?: number }];

export function bundleManifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    manifest_version: '0.3',
    name: 'notes',
    version: '1.0.0',
    description: 'A notes server',
    author: { name: 'Ada' },
    server: {
      type: 'node',
      entry_point: 'server/index.js',
      mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'] },
    },
    ...overrides,
  };
}

/** A zip of `files` (text or bytes) with manifest.json holding `manifest` unless `files` gives its own. */
export function zipBundle(files: Record<string, BundleEntry> = {}, manifest: unknown = bundleManifest()): Uint8Array {
  const bytes = (data: string | Uint8Array) => (typeof data === 'string' ? new TextEncoder().encode(data) : data);
  const entries: Zippable = { 'manifest.json': bytes(JSON.stringify(manifest)) };
  for (const [name, data] of Object.entries(files)) {
    entries[name] = Array.isArray(data) ? [bytes(data[0]), data[1]] : bytes(data);
  }
  return zipSync(entries);
}

/** Rewrites the declared uncompressed size of the entry `name` in the zip's central directory. */
export function declareSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const bytes = Buffer.from(zip);
  for (let offset = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); offset >= 0;) {
    const nameLength = bytes.readUInt16LE(offset + 28);
    if (bytes.toString('utf8', offset + 46, offset + 46 + nameLength) === name) {
      bytes.writeUInt32LE(size, offset + 24);
      return bytes;
    }
    offset = offset === 0 ? -1 : bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), offset - 1);
  }
  throw new Error(`no entry ${name}`);
}
