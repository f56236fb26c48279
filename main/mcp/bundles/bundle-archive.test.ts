import { describe, expect, it } from 'vitest';
import { readBundleArchive } from './bundle-archive.js';
import { parseManifest } from './bundle-manifest.js';
import { bundleManifest, declareSize, zipBundle } from './test-support.js';

const limits = { maxFileBytes: 1024 * 1024, maxUnpackedBytes: 64 * 1024, maxEntries: 10 };

describe('readBundleArchive', () => {
  it('reads the entries, their Unix modes and whether a signature block is appended', () => {
    const zip = zipBundle({ 'server/index.js': ['console.log(1)', { os: 3, attrs: 0o100755 << 16 }] });
    const read = readBundleArchive(zip, limits);
    expect(read.signaturePresent).toBe(false);
    expect(read.files.map((file) => [file.path, file.mode])).toEqual([
      ['manifest.json', undefined],
      ['server/index.js', 0o755],
    ]);
    const signed = Buffer.concat([
      zip,
      Buffer.from('MCPB_SIG_V1'),
      Buffer.from([3, 0, 0, 0, 1, 2, 3]),
      Buffer.from('MCPB_SIG_END'),
    ]);
    expect(readBundleArchive(signed, limits).signaturePresent).toBe(true);
  });

  it.each([
    ['../evil.js', '"../evil.js" in the bundle would be written outside its folder; refused.'],
    ['server/../../evil.js', '"server/../../evil.js" in the bundle would be written outside its folder; refused.'],
    ['/etc/evil', '"/etc/evil" in the bundle would be written outside its folder; refused.'],
    ['C:/evil', '"C:/evil" in the bundle would be written outside its folder; refused.'],
    ['server\\..\\evil', '"server\\..\\evil" in the bundle would be written outside its folder; refused.'],
  ])('refuses the entry %s', (name, message) => {
    expect(() => readBundleArchive(zipBundle({ [name]: 'x' }), limits)).toThrow(message);
  });

  it('refuses a symlink', () => {
    const zip = zipBundle({ link: ['/etc/passwd', { os: 3, attrs: 0o120777 << 16 }] });
    expect(() => readBundleArchive(zip, limits)).toThrow('"link" in the bundle is a symlink; refused.');
  });

  it('refuses by declared size before inflating, and an entry whose data does not match what it declares', () => {
    const zip = zipBundle({ 'big.bin': 'small' });
    expect(() => readBundleArchive(declareSize(zip, 'big.bin', 0xfffffff0), limits)).toThrow(
      `The bundle would unpack to more than ${limits.maxUnpackedBytes} bytes (declared by "big.bin" and the entries before it); refused.`,
    );
    // Declared smaller than it is: the inflated data is cut at the declared size and fails its checksum.
    const bomb = zipBundle({ 'bomb.bin': new Uint8Array(50_000) });
    expect(() => readBundleArchive(declareSize(bomb, 'bomb.bin', 10), limits)).toThrow(
      '"bomb.bin" in the bundle does not match its declared size and checksum; refused.',
    );
  });

  it('refuses too many entries, a file over the limit and a file that is not a zip', () => {
    const many = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`file-${index}.txt`, 'x']));
    expect(() => readBundleArchive(zipBundle(many), limits)).toThrow('The bundle has 11 entries; the limit is 10.');
    expect(() => readBundleArchive(new Uint8Array(limits.maxFileBytes + 1), limits)).toThrow(
      `The bundle is ${limits.maxFileBytes + 1} bytes; the limit is ${limits.maxFileBytes}.`,
    );
    expect(() => readBundleArchive(new TextEncoder().encode('{"name": "not a zip"}'), limits)).toThrow(
      'The file is not a bundle: it is not a zip file.',
    );
  });
});

describe('parseManifest', () => {
  const parse = (manifest: unknown) => parseManifest(new TextEncoder().encode(JSON.stringify(manifest)));

  it('keeps fields it does not read, and takes the older dxt_version', () => {
    const { manifest_version: _, ...older } = bundleManifest({ dxt_version: '0.1', icons: [{ src: 'a.png' }] });
    expect(parse(older).name).toBe('notes');
  });

  it('names each bad field', () => {
    const manifest = bundleManifest({
      server: { type: 'ruby', mcp_config: { command: '' } },
      user_config: { key: { type: 'secret' } },
    });
    delete manifest.manifest_version;
    expect(() => parse(manifest)).toThrow(
      'manifest.json is not a valid bundle manifest: server.type: expected one of node, python, binary, uv; got "ruby"; ' +
        'server.mcp_config.command: must not be empty; ' +
        'user_config.key.type: expected one of string, number, boolean, directory, file; got "secret"',
    );
    expect(() => parse({ ...bundleManifest(), version: 3 })).toThrow('version: expected a string, got number 3');
    expect(() => parseManifest(new TextEncoder().encode('{'))).toThrow('manifest.json is not valid JSON');
  });
});
