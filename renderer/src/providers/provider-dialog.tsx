// Add or edit a provider: choose a preset (kind and base URL filled in) or describe one, test the settings before
// saving them. The API key is write-only: it is sent to main, stored where the hint says (the OS keychain, or the
// file main falls back to), and never comes back; editing shows only its last four characters and leaves it alone
// unless a new one is typed.

import { useCallback, useState, type FormEvent } from 'react';
import {
  defaultProviderCooldown,
  providerKinds,
  type ProviderCooldown,
  type ProviderInfo,
  type ProviderKind,
  type ProviderTestResult,
} from '../../../shared/api/index.js';
import type { BridgeResponse } from '../../../shared/bridge/contract.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { useLoad } from '../ui/use-load.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { ChoiceField, TextField } from '../ui/parts.js';
import { providerPresets, type ProviderPreset } from './provider-presets.js';

export const kindLabels: Record<ProviderKind, string> = {
  openai: 'OpenAI-compatible',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
};

const defaultBaseUrls: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  google: 'https://generativelanguage.googleapis.com',
};

interface ProviderDialogProps {
  /** Absent: a new provider. */
  provider?: ProviderInfo;
  onClose(): void;
  onSaved(provider: ProviderInfo): void;
}

const customPreset = 'custom';
const presetIds = [...providerPresets.map((preset) => preset.id), customPreset];
const presetLabels: Record<string, string> = {
  ...Object.fromEntries(providerPresets.map((preset) => [preset.id, preset.label])),
  [customPreset]: 'Another provider (enter its kind and base URL)',
};

type KeyStore = BridgeResponse<'providers:key-store'>;

/** Where a key typed here goes, in the words of the store the server really uses. */
function keyStoreWords(store: KeyStore | undefined): string {
  if (!store) return 'Stored by Switchyard';
  if (store.kind === 'keychain') return 'Stored in the OS keychain';
  if (store.kind === 'database') return "Stored encrypted in the team server's database";
  return `Stored in ${store.location}, a file only you can read (this system has no OS keychain Switchyard can use),`;
}

/** The key field's hint for a new provider. */
function newKeyHint(preset: ProviderPreset | undefined, store: KeyStore | undefined): string {
  if (preset?.keyless) return `${preset.label} on this machine needs no key: leave it empty.`;
  const where = preset?.keyPage ? `Create one at ${preset.keyPage}. ` : '';
  return `${where}${keyStoreWords(store)} and never shown again. Leave empty for a provider that needs none (Ollama).`;
}

/** The two cooldown fields as typed; empty takes the default. Undefined when nothing is set. */
function cooldownOf(after: string, seconds: string): ProviderCooldown {
  return {
    ...(after.trim() === '' ? {} : { after: Number(after) }),
    ...(seconds.trim() === '' ? {} : { seconds: Number(seconds) }),
  };
}

export function ProviderDialog({ provider, onClose, onSaved }: ProviderDialogProps) {
  const bridge = useBridge();
  const editing = provider !== undefined;
  const [presetId, setPresetId] = useState(customPreset);
  const [id, setId] = useState(provider?.id ?? '');
  const [kind, setKind] = useState<ProviderKind>(provider?.kind ?? 'openai');
  const [baseUrl, setBaseUrl] = useState(provider?.base_url ?? defaultBaseUrls.openai);
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [cooldownAfter, setCooldownAfter] = useState(String(provider?.cooldown?.after ?? ''));
  const [cooldownSeconds, setCooldownSeconds] = useState(String(provider?.cooldown?.seconds ?? ''));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The last test's answer while the settings are still the ones tested: any change makes it stale.
  const [test, setTest] = useState<ProviderTestResult | 'testing' | null>(null);
  const preset = providerPresets.find((candidate) => candidate.id === presetId);
  const keyStore = useLoad(useCallback(() => bridge.invoke('providers:key-store'), [bridge])).data;

  const changed = <Value,>(set: (value: Value) => void) => {
    return (value: Value) => {
      set(value);
      setTest(null);
    };
  };

  const changeKind = changed((next: ProviderKind) => {
    // Follow the kind while the URL is still the previous kind's default.
    if (baseUrl === defaultBaseUrls[kind] || baseUrl === '') setBaseUrl(defaultBaseUrls[next]);
    setKind(next);
  });

  const choosePreset = changed((next: string) => {
    const chosen = providerPresets.find((candidate) => candidate.id === next);
    // The id follows the preset until the person types one of their own.
    if (id.trim() === '' || id === preset?.id) setId(chosen?.id ?? '');
    if (chosen) {
      setKind(chosen.kind);
      setBaseUrl(chosen.baseUrl);
    }
    setPresetId(next);
  });

  const runTest = async () => {
    setTest('testing');
    const key = apiKey.trim();
    try {
      setTest(
        await bridge.invoke('providers:test-settings', {
          kind,
          baseUrl,
          // Typed: that key. Editing without a new one: the stored key, unless it is being removed.
          ...(key ? { apiKey: key } : editing && !removeKey ? {} : { apiKey: null }),
          ...(editing ? { keyOf: provider.id } : { id: id.trim().slice(0, 200) }),
        }),
      );
    } catch (failure) {
      setTest({ ok: false, message: errorMessage(failure), modelCount: null });
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const key = apiKey.trim();
      const cooldown = cooldownOf(cooldownAfter, cooldownSeconds);
      const saved = editing
        ? await bridge.invoke('providers:update', {
            id,
            kind,
            baseUrl,
            cooldown,
            ...(removeKey ? { apiKey: null } : key ? { apiKey: key } : {}),
          })
        : await bridge.invoke('providers:add', { id: id.trim(), kind, baseUrl, apiKey: key || null, cooldown });
      setApiKey('');
      onSaved(saved.provider);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const storedKey = provider?.has_api_key
    ? provider.api_key_tail
      ? `the stored key ending in ${provider.api_key_tail}`
      : 'the stored key'
    : null;

  return (
    <Dialog title={editing ? `Edit provider ${provider.id}` : 'Add a provider'} onClose={onClose}>
      <form className="form" onSubmit={(event) => void submit(event)}>
        {editing ? null : (
          <>
            <ChoiceField
              label="Preset"
              hint="Fills in the kind and base URL of a well-known provider."
              options={presetIds}
              labels={presetLabels}
              value={presetId}
              onChange={choosePreset}
            />
            <TextField
              label="Id"
              hint={'Models are called "<id>/<model>", e.g. openai/gpt-4o-mini.'}
              required
              value={id}
              spellCheck={false}
              autoComplete="off"
              placeholder="openai"
              onChange={setId}
            />
          </>
        )}
        <ChoiceField
          label="Kind"
          hint="The API it speaks. Ollama, LM Studio, OpenRouter and most others are OpenAI-compatible."
          options={providerKinds}
          labels={kindLabels}
          value={kind}
          onChange={changeKind}
        />
        <TextField
          label="Base URL"
          required
          type="url"
          value={baseUrl}
          spellCheck={false}
          onChange={changed(setBaseUrl)}
        />
        <TextField
          label={editing ? 'New API key' : 'API key'}
          hint={
            editing
              ? storedKey
                ? `Leave empty to keep ${storedKey}.`
                : 'This provider has no key stored.'
              : newKeyHint(preset, keyStore)
          }
          type="password"
          autoComplete="off"
          value={apiKey}
          disabled={removeKey}
          onChange={changed(setApiKey)}
        />
        {editing && provider.has_api_key ? (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={removeKey}
              onChange={(event) => changed(setRemoveKey)(event.target.checked)}
            />
            Remove the stored key
          </label>
        ) : null}
        {[
          {
            label: 'Cool a model down after (failures)',
            hint: `Failures within ${defaultProviderCooldown.windowSeconds} s (rate limits, server errors, timeouts, refused connections) before its requests go to the fallbacks. 0 turns cooldowns off. Empty: ${defaultProviderCooldown.after}.`,
            min: 0,
            max: 1000,
            value: cooldownAfter,
            onChange: setCooldownAfter,
          },
          {
            label: 'Cooldown (seconds)',
            hint: `Doubles while the model keeps failing, up to ${defaultProviderCooldown.maxSeconds / 60} minutes; then one trial request. Empty: ${defaultProviderCooldown.seconds}.`,
            min: 1,
            max: defaultProviderCooldown.maxSeconds,
            value: cooldownSeconds,
            onChange: setCooldownSeconds,
          },
        ].map((field) => (
          <TextField key={field.label} {...field} type="number" step={1} inputMode="numeric" />
        ))}
        <div className="form-test">
          <button type="button" disabled={test === 'testing'} onClick={() => void runTest()}>
            Test connection
          </button>
          <p className={`test-result ${test && test !== 'testing' ? (test.ok ? 'ok' : 'failed') : ''}`} role="status">
            {test === 'testing' ? 'Testing…' : (test?.message ?? 'Nothing is saved by a test.')}
          </p>
        </div>
        <FormActions submitLabel={editing ? 'Save' : 'Add provider'} onCancel={onClose} error={error} busy={busy} />
      </form>
    </Dialog>
  );
}
