// `switchyard secret-key generate`, run as a user runs it: one key on standard output, usable as
// SWITCHYARD_SECRET_KEY, different every time.

import { describe, expect, it } from 'vitest';
import { SecretCipher } from '../../main/secrets/index.js';
import { runCli } from '../support/cli.js';

describe('switchyard secret-key generate', () => {
  it('prints a fresh 32-byte base64 key and nothing else', async () => {
    const first = await runCli(['secret-key', 'generate']);
    const second = await runCli(['secret-key', 'generate']);
    for (const result of [first, second]) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    }
    expect(first.stdout).not.toBe(second.stdout);
    // What it prints is a key the cipher accepts, read as the shell's $(…) would.
    const cipher = SecretCipher.fromEnv({ SWITCHYARD_SECRET_KEY: first.stdout.trim() });
    expect(cipher.open(cipher.seal('sk-secret', 'provider:p'), 'provider:p')).toBe('sk-secret');
  });
});
