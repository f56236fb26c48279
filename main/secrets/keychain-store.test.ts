import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { FakeKeytar } from '../../test/support/fake-keytar.js';
import { KeychainSecretStore, keychainServiceName, probeKeychain } from './keychain-store.js';

describe('KeychainSecretStore', () => {
  it('stores under the service "Switchyard" with the caller\'s account', async () => {
    const keytar = new FakeKeytar();
    const store = new KeychainSecretStore(keytar);
    expect(keychainServiceName).toBe('Switchyard');
    expect(store.kind).toBe('keychain');
    expect(store.location).toBe('OS keychain (service "Switchyard")');

    await store.set('provider:openai', 'sk-one');
    expect([...keytar.entries]).toEqual([['Switchyard/provider:openai', 'sk-one']]);
    expect(await store.get('provider:openai')).toBe('sk-one');
    expect(await store.delete('provider:openai')).toBe(true);
    expect(await store.delete('provider:openai')).toBe(false);
    expect(keytar.entries.size).toBe(0);
    expect(await store.get('provider:openai')).toBeNull();
  });

  it('asks the keychain once per account, including for accounts with no secret', async () => {
    const keytar = new FakeKeytar();
    keytar.entries.set('Switchyard/provider:openai', 'sk-one');
    const store = new KeychainSecretStore(keytar);

    const [first, second] = await Promise.all([store.get('provider:openai'), store.get('provider:openai')]);
    expect([first, second]).toEqual(['sk-one', 'sk-one']);
    expect(await store.get('provider:none')).toBeNull();
    expect(await store.get('provider:none')).toBeNull();
    expect(keytar.calls).toBe(2);
  });

  it("sees another process's changes only after invalidate()", async () => {
    const keytar = new FakeKeytar();
    const store = new KeychainSecretStore(keytar);
    await store.set('provider:openai', 'sk-old');
    keytar.entries.set('Switchyard/provider:openai', 'sk-new');
    keytar.entries.set('Switchyard/provider:google', 'sk-google');

    expect(await store.get('provider:openai')).toBe('sk-old');
    store.invalidate('provider:openai');
    expect(await store.get('provider:openai')).toBe('sk-new');

    keytar.entries.delete('Switchyard/provider:openai');
    expect(await store.get('provider:openai')).toBe('sk-new');
    store.invalidate();
    expect(await store.get('provider:openai')).toBeNull();
    expect(await store.get('provider:google')).toBe('sk-google');
  });

  it('does not cache a failed read', async () => {
    const keytar = new FakeKeytar();
    keytar.entries.set('Switchyard/provider:openai', 'sk-one');
    const store = new KeychainSecretStore(keytar);
    keytar.failure = new Error('The name org.freedesktop.secrets was not provided');
    await expect(store.get('provider:openai')).rejects.toThrow(/provider:openai.*org\.freedesktop\.secrets/);
    keytar.failure = null;
    expect(await store.get('provider:openai')).toBe('sk-one');
  });

  it('names the account but never the secret when the keychain fails', async () => {
    const keytar = new FakeKeytar();
    const store = new KeychainSecretStore(keytar);
    await store.set('provider:openai', 'sk-cached');
    keytar.failure = new Error('Object does not exist at path /org/freedesktop/secrets/collection/login');

    const error = await store.set('provider:openai', 'sk-LEAKED-4242').catch((rejection: unknown) => rejection);
    expect((error as Error).message).toContain('"provider:openai"');
    expect((error as Error).message).toContain('collection/login');
    expect(inspect(error)).not.toContain('sk-LEAKED-4242');

    // After a failed write the old cached value may be wrong, so the next read goes to the keychain.
    keytar.failure = null;
    expect(await store.get('provider:openai')).toBe('sk-cached');
    expect(keytar.calls).toBe(3);
  });
});

describe('probeKeychain', () => {
  it('reports a reachable keychain', async () => {
    expect(await probeKeychain(new FakeKeytar(), 1_000)).toEqual({ reachable: true });
  });

  it('reports a throwing keychain with the reason on one line', async () => {
    const keytar = new FakeKeytar();
    keytar.failure = new Error('Could not connect:\n No such file or directory');
    expect(await probeKeychain(keytar, 1_000)).toEqual({
      reachable: false,
      reason: 'Could not connect: No such file or directory',
    });
  });

  it('gives up on a keychain that never answers', async () => {
    const keytar = new FakeKeytar();
    keytar.hang = true;
    vi.useFakeTimers();
    try {
      let answer: unknown;
      void probeKeychain(keytar, 100).then((probe) => (answer = probe));
      await vi.advanceTimersByTimeAsync(99);
      expect(answer).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(answer).toEqual({ reachable: false, reason: 'no answer within 100 ms' });
    } finally {
      vi.useRealTimers();
    }
  });
});
