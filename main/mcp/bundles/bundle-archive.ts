// Reading a .mcpb file: a zip (as `mcpb pack` writes it), perhaps followed by a signature block
// (`MCPB_SIG_V1`, a length, a PKCS#7 blob, `MCPB_SIG_END`, as `mcpb sign` appends it). The zip's own directory is
// read here rather than trusted to an unzip helper, because what makes a bundle unsafe is in that directory: paths
// that climb out (`../`, absolute, drive letters), symlinks (Unix mode bits in the external attributes), and sizes
// (declared sizes are checked before anything is inflated; each inflated entry must match its declared size and CRC,
// so an entry that lies about its size cannot grow past what was allowed).

import { crc32, inflateRawSync } from 'node:zlib';
import { BundleError } from './bundle-manifest.js';

export interface BundleLimits {
  /** The .mcpb file itself. */
  maxFileBytes: number;
  /** All entries unpacked, by their declared and their actual sizes. */
  maxUnpackedBytes: number;
  maxEntries: number;
}

export const defaultBundleLimits: BundleLimits = {
  maxFileBytes: 256 * 1024 * 1024,
  maxUnpackedBytes: 1024 * 1024 * 1024,
  maxEntries: 20_000,
};

export interface BundleFile {
  /** Relative, `/`-separated, checked to stay inside the folder it is unpacked into. */
  path: string;
  data: Uint8Array;
  /** Unix permission bits when the zip records them (an executable server), else undefined. */
  mode?: number;
}

export interface BundleArchive {
  files: BundleFile[];
  /** A signature block is appended; its certificate chain is not verified. */
  signaturePresent: boolean;
}

const signatureHeader = Buffer.from('MCPB_SIG_V1');
const signatureFooter = Buffer.from('MCPB_SIG_END');

/** The zip's entries, checked; throws a BundleError (naming the entry) for anything unsafe or oversized. */
export function readBundleArchive(bytes: Uint8Array, limits: BundleLimits = defaultBundleLimits): BundleArchive {
  checkBundleSize(bytes.length, limits);
  const { zip, signaturePresent } = splitSignature(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  const entries = readCentralDirectory(zip, limits);
  return { files: entries.map((entry) => inflateEntry(zip, entry)), signaturePresent };
}

/** Refuses a bundle file over the limit, by its size: callers check before reading it into memory. */
export function checkBundleSize(size: number, limits: BundleLimits = defaultBundleLimits): void {
  if (size > limits.maxFileBytes)
    throw new BundleError(`The bundle is ${size} bytes; the limit is ${limits.maxFileBytes}.`);
}

interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  mode?: number;
}

function splitSignature(file: Buffer): { zip: Buffer; signaturePresent: boolean } {
  const footer = file.lastIndexOf(signatureFooter);
  if (footer < 0 || footer + signatureFooter.length !== file.length) return { zip: file, signaturePresent: false };
  const header = file.lastIndexOf(signatureHeader, footer);
  if (header < 0) return { zip: file, signaturePresent: false };
  return { zip: file.subarray(0, header), signaturePresent: true };
}

function readCentralDirectory(zip: Buffer, limits: BundleLimits): ZipEntry[] {
  const end = findEndOfDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  const directoryOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) {
    throw new BundleError('The bundle is a ZIP64 archive, which is not accepted (bundles are far smaller).');
  }
  if (count > limits.maxEntries) {
    throw new BundleError(`The bundle has ${count} entries; the limit is ${limits.maxEntries}.`);
  }
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let total = 0;
  let offset = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== 0x02014b50) {
      throw new BundleError('The bundle is not a valid zip file (its directory is damaged).');
    }
    const nameLength = zip.readUInt16LE(offset + 28);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    const flags = zip.readUInt16LE(offset + 8);
    const madeBy = zip.readUInt16LE(offset + 4) >> 8;
    const unixMode = madeBy === 3 ? zip.readUInt32LE(offset + 38) >>> 16 : 0;
    const entry: ZipEntry = {
      name,
      method: zip.readUInt16LE(offset + 10),
      crc: zip.readUInt32LE(offset + 16),
      compressedSize: zip.readUInt32LE(offset + 20),
      size: zip.readUInt32LE(offset + 24),
      localOffset: zip.readUInt32LE(offset + 42),
      ...(unixMode & 0o777 ? { mode: unixMode & 0o777 } : {}),
    };
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
    checkEntryPath(name);
    if ((unixMode & 0o170000) === 0o120000) throw new BundleError(`"${name}" in the bundle is a symlink; refused.`);
    if (flags & 1) throw new BundleError(`"${name}" in the bundle is encrypted; refused.`);
    if (name.endsWith('/')) continue;
    if (entry.method !== 0 && entry.method !== 8) {
      throw new BundleError(`"${name}" in the bundle uses compression method ${entry.method}; only deflate is read.`);
    }
    if (names.has(name.toLowerCase())) throw new BundleError(`"${name}" appears twice in the bundle; refused.`);
    names.add(name.toLowerCase());
    total += entry.size;
    if (total > limits.maxUnpackedBytes) {
      throw new BundleError(
        `The bundle would unpack to more than ${limits.maxUnpackedBytes} bytes (declared by "${name}" and the ` +
          'entries before it); refused.',
      );
    }
    entries.push(entry);
  }
  return entries;
}

function findEndOfDirectory(zip: Buffer): number {
  const earliest = Math.max(0, zip.length - 22 - 0xffff);
  for (let offset = zip.length - 22; offset >= earliest; offset--) {
    if (zip.readUInt32LE(offset) === 0x06054b50) return offset;
  }
  throw new BundleError('The file is not a bundle: it is not a zip file.');
}

/** Refuses a name that could land outside the folder: absolute, a drive, `..`, a backslash, a control character. */
function checkEntryPath(name: string): void {
  const unsafe =
    name === '' ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.includes('\\') ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f]/.test(name) ||
    name.split('/').some((part) => part === '..');
  if (unsafe) throw new BundleError(`"${name}" in the bundle would be written outside its folder; refused.`);
}

function inflateEntry(zip: Buffer, entry: ZipEntry): BundleFile {
  const local = entry.localOffset;
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) {
    throw new BundleError(`"${entry.name}" in the bundle is damaged (no local header).`);
  }
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  if (start + entry.compressedSize > zip.length) throw new BundleError(`"${entry.name}" in the bundle is truncated.`);
  const stored = zip.subarray(start, start + entry.compressedSize);
  const mismatch = () =>
    new BundleError(`"${entry.name}" in the bundle does not match its declared size and checksum; refused.`);
  let data: Uint8Array;
  try {
    // Inflating stops past the declared size (zip entries are raw deflate): an entry that inflates to more is refused.
    data = entry.method === 0 ? stored : inflateRawSync(stored, { maxOutputLength: Math.max(entry.size, 1) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw mismatch();
    throw new BundleError(`"${entry.name}" in the bundle cannot be inflated: ${(error as Error).message}`);
  }
  if (data.length !== entry.size || crc32(data) !== entry.crc) throw mismatch();
  return { path: entry.name, data, ...(entry.mode ? { mode: entry.mode } : {}) };
}
