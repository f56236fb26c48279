// Decides once, at start, where provider keys live: the OS keychain when one answers, otherwise a 0600 file in
// the data dir plus a warning for the caller to print. SWITCHYARD_SECRET_STORE pins the choice, so that a machine
// that is meant to have a keychain never quietly writes keys to disk.

import { access } from 'node:fs/promises';
import path from 'node:path';
import { describeError } from './describe-error.js';
import { FileSecretStore, secretsFileName, tightenSecretsFileMode } from './file-store.js';
import { KeychainSecretStore, keychainHelp, loadKeytar, probeKeychain, type KeytarApi } from './keychain-store.js';
import type { OpenedSecretStore } from './secret-store.js';

export interface OpenSecretStoreOptions {
  dataDir: string;
  /** 'keychain', 'file', or unset/empty to pick automatically. Defaults to process.env.SWITCHYARD_SECRET_STORE. */
  mode?: string;
  /** How long the keychain may take to answer the probe before it counts as unreachable. */
  probeTimeoutMs?: number;
}

export const defaultProbeTimeoutMs = 3_000;

const modeVariable = 'SWITCHYARD_SECRET_STORE';

export async function openSecretStore(options: OpenSecretStoreOptions): Promise<OpenedSecretStore> {
  return selectSecretStore(options, loadKeytar);
}

/** openSecretStore with keytar's loader as a parameter, so tests can stand in a keychain that hangs or throws. */
export async function selectSecretStore(
  options: OpenSecretStoreOptions,
  load: () => Promise<KeytarApi>,
): Promise<OpenedSecretStore> {
  const fromOptions = options.mode !== undefined;
  const mode = (fromOptions ? options.mode : process.env[modeVariable]) ?? '';
  if (mode !== '' && mode !== 'keychain' && mode !== 'file') {
    throw new Error(
      `Unknown secret store mode "${mode}"${fromOptions ? '' : ` in ${modeVariable}`}: use "keychain" or "file", ` +
        'or leave it unset to use the OS keychain when one is reachable and a file otherwise.',
    );
  }
  const filePath = path.join(options.dataDir, secretsFileName);
  if (mode === 'file') return openFileStore(filePath, null);

  const keychain = await reachKeychain(load, options.probeTimeoutMs ?? defaultProbeTimeoutMs);
  if ('keytar' in keychain) {
    return { store: new KeychainSecretStore(keychain.keytar), warning: await leftoverFileWarning(filePath) };
  }
  if (mode === 'keychain') {
    const source = fromOptions ? 'secret store mode "keychain"' : `${modeVariable}=keychain`;
    throw new Error(`The OS keychain is required (${source}) but not reachable: ${keychain.reason}. ${keychainHelp()}`);
  }
  return openFileStore(
    filePath,
    `No OS keychain reachable (${keychain.reason}); provider keys are stored in ${filePath} (mode 0600). ` +
      `Set ${modeVariable}=keychain to require the keychain.`,
  );
}

async function reachKeychain(
  load: () => Promise<KeytarApi>,
  timeoutMs: number,
): Promise<{ keytar: KeytarApi } | { reason: string }> {
  let keytar: KeytarApi;
  try {
    keytar = await load();
  } catch (error) {
    return { reason: `the keytar native module did not load: ${describeError(error)}` };
  }
  const probe = await probeKeychain(keytar, timeoutMs);
  return probe.reachable ? { keytar } : { reason: probe.reason };
}

async function openFileStore(filePath: string, fallbackWarning: string | null): Promise<OpenedSecretStore> {
  const modeWarning = await tightenSecretsFileMode(filePath);
  // Still one line: the caller prints it as is.
  const warning = [fallbackWarning, modeWarning].filter(Boolean).join(' ') || null;
  return { store: new FileSecretStore(filePath), warning };
}

// Keys saved while no keychain answered stay in the file; without this line they would just seem to vanish.
async function leftoverFileWarning(filePath: string): Promise<string | null> {
  const exists = await access(filePath).then(
    () => true,
    () => false,
  );
  return exists
    ? `${filePath} exists from a run without an OS keychain; keys in it are not used while the keychain is reachable. ` +
        "Add those providers' keys again, then delete the file."
    : null;
}
