// Add or edit a provider. The API key is write-only: it is sent to main, stored in the keychain, and never comes
// back; editing shows only its last four characters and leaves it alone unless a new one is typed.

import { useState, type FormEvent } from 'react';
import { providerKinds, type ProviderInfo, type ProviderKind } from '../../../shared/api/index.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { ChoiceField, Field } from '../ui/parts.js';

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

export function ProviderDialog({ provider, onClose, onSaved }: ProviderDialogProps) {
  const bridge = useBridge();
  const editing = provider !== undefined;
  const [id, setId] = useState(provider?.id ?? '');
  const [kind, setKind] = useState<ProviderKind>(provider?.kind ?? 'openai');
  const [baseUrl, setBaseUrl] = useState(provider?.base_url ?? defaultBaseUrls.openai);
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const changeKind = (next: ProviderKind) => {
    // Follow the kind while the URL is still the previous kind's default.
    if (baseUrl === defaultBaseUrls[kind] || baseUrl === '') setBaseUrl(defaultBaseUrls[next]);
    setKind(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const key = apiKey.trim();
      const saved = editing
        ? await bridge.invoke('providers:update', {
            id,
            kind,
            baseUrl,
            ...(removeKey ? { apiKey: null } : key ? { apiKey: key } : {}),
          })
        : await bridge.invoke('providers:add', { id: id.trim(), kind, baseUrl, apiKey: key || null });
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
          <Field label="Id" hint={'Models are called "<id>/<model>", e.g. openai/gpt-4o-mini.'}>
            {(props) => (
              <input
                {...props}
                required
                value={id}
                spellCheck={false}
                autoComplete="off"
                placeholder="openai"
                onChange={(event) => setId(event.target.value)}
              />
            )}
          </Field>
        )}
        <ChoiceField
          label="Kind"
          hint="The API it speaks. Ollama, LM Studio, OpenRouter and most others are OpenAI-compatible."
          options={providerKinds}
          labels={kindLabels}
          value={kind}
          onChange={changeKind}
        />
        <Field label="Base URL">
          {(props) => (
            <input
              {...props}
              required
              type="url"
              value={baseUrl}
              spellCheck={false}
              onChange={(event) => setBaseUrl(event.target.value)}
            />
          )}
        </Field>
        <Field
          label={editing ? 'New API key' : 'API key'}
          hint={
            editing
              ? storedKey
                ? `Leave empty to keep ${storedKey}.`
                : 'This provider has no key stored.'
              : 'Stored in the OS keychain and never shown again. Leave empty for a provider that needs none (Ollama).'
          }
        >
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="off"
              value={apiKey}
              disabled={removeKey}
              onChange={(event) => setApiKey(event.target.value)}
            />
          )}
        </Field>
        {editing && provider.has_api_key ? (
          <label className="checkbox">
            <input type="checkbox" checked={removeKey} onChange={(event) => setRemoveKey(event.target.checked)} />
            Remove the stored key
          </label>
        ) : null}
        <FormActions submitLabel={editing ? 'Save' : 'Add provider'} onCancel={onClose} error={error} busy={busy} />
      </form>
    </Dialog>
  );
}
