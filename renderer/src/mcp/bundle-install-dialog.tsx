// Installing an MCP bundle (.mcpb) chosen with the file picker or dropped on the MCP screen: its name, version and
// author, whether a signature is present (never "trusted": it is not verified), exactly what it will run, and a field
// for each user_config setting — then Install. The file's bytes go to main over the bridge, at most maxBundleBytes.

import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { maxBundleBytes } from '../../../shared/bridge/limits.js';
import type { BundleInput, BundleInstallPreview } from '../../../shared/mcp/bundle-types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice, Field, Loaded } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';
import { ReviewList } from './run-review.js';

/** While mounted: a .mcpb file dropped anywhere on the window is handed to `onFile` (other drops are left alone). */
export function useBundleDrop(onFile: (file: File) => void): void {
  useEffect(() => {
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
    const over = (event: DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      const file = [...(event.dataTransfer?.files ?? [])].find((item) => item.name.toLowerCase().endsWith('.mcpb'));
      if (!file) return;
      event.preventDefault();
      onFile(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [onFile]);
}

interface BundleInstallDialogProps {
  file: File;
  onClose(): void;
  onInstalled(entryName: string): void;
}

export function BundleInstallDialog({ file, onClose, onInstalled }: BundleInstallDialogProps) {
  const bridge = useBridge();
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<BundleInstallPreview | null>(null);
  const [reviewed, setReviewed] = useState(false);
  // The file is read once; each preview and the install send its bytes again (main keeps nothing between calls).
  const first = useLoad(
    useCallback(async () => {
      const data = await readBase64(file);
      return { data, preview: await bridge.invoke('mcp:bundle-preview', { fileName: file.name, data, values: {} }) };
    }, [bridge, file]),
  );
  const shown = preview ?? first.data?.preview;
  const request = () => ({ fileName: file.name, data: first.data!.data, values: toValues(shown!.inputs, values) });

  const review = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      setPreview(await bridge.invoke('mcp:bundle-preview', request()));
      setReviewed(true);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const install = async () => {
    setBusy(true);
    setError(null);
    try {
      onInstalled((await bridge.invoke('mcp:bundle-install', request())).entryName);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const set = (key: string, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setReviewed(false);
  };
  const ready = reviewed && preview !== null && preview.missing.length === 0 && preview.problems.length === 0;

  return (
    <Dialog title={`Install ${file.name}`} onClose={onClose} wide>
      <Loaded loaded={first} what="the bundle">
        {() => (
          <form onSubmit={(event) => void review(event)} className="registry-install">
            <dl className="bundle-facts">
              <dt>Bundle</dt>
              <dd>
                {shown!.displayName} {shown!.version}
              </dd>
              <dt>Author</dt>
              <dd>{shown!.author}</dd>
              <dt>Signature</dt>
              <dd>{shown!.signature}</dd>
              <dt>Added as</dt>
              <dd>
                “{shown!.entryName}”{shown!.replaces ? `, replacing ${shown!.replaces}` : ''}
              </dd>
            </dl>
            {shown!.inputs.map((input) => (
              <SettingField
                key={input.key}
                input={input}
                value={values[input.key] ?? ''}
                missing={reviewed && (preview?.missing.includes(input.key) ?? false)}
                onChange={(value) => set(input.key, value)}
              />
            ))}
            <p>
              This runs on this computer, as you, with access to what you can access. Install it only if you trust it.
            </p>
            <ReviewList reviews={[shown!.review]} />
            {reviewed && preview && preview.problems.length > 0 ? (
              <p className="notice notice-error" role="alert">
                {preview.problems.join(' ')}
              </p>
            ) : null}
            <div className="dialog-actions">
              <button type="submit">Check the settings</button>
            </div>
          </form>
        )}
      </Loaded>
      <ErrorNotice message={error} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={!ready || busy} onClick={() => void install()}>
          Install and start
        </button>
      </div>
    </Dialog>
  );
}

function SettingField(props: { input: BundleInput; value: string; missing: boolean; onChange(value: string): void }) {
  const { input, value, missing, onChange } = props;
  const label = `${input.title}${input.required ? ' (required)' : ''}`;
  const hint = [
    input.description && !/[.!?]$/.test(input.description) ? `${input.description}.` : input.description,
    input.multiple ? 'Several values: one a line.' : undefined,
    input.sensitive ? 'Kept in the secret store.' : undefined,
    input.type === 'directory' || input.type === 'file'
      ? `The path of a ${input.type} on the computer running Switchyard.`
      : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  const placeholder = input.sensitive ? '' : (input.default ?? []).join(input.multiple ? '\n' : '');
  return (
    <Field label={label} hint={hint} error={missing ? 'Required: fill it in.' : null}>
      {(field) =>
        input.type === 'boolean' ? (
          <select {...field} value={value} onChange={(event) => onChange(event.target.value)}>
            <option value="">{input.default ? `Default (${input.default.join('')})` : '(not set)'}</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : input.multiple ? (
          <textarea
            {...field}
            rows={3}
            placeholder={placeholder}
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <input
            {...field}
            type={input.sensitive ? 'password' : input.type === 'number' ? 'number' : 'text'}
            autoComplete="off"
            aria-required={input.required && input.default === undefined}
            placeholder={placeholder}
            {...(input.min !== undefined ? { min: input.min } : {})}
            {...(input.max !== undefined ? { max: input.max } : {})}
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </Field>
  );
}

/** The typed values as the bridge takes them: a list each, a `multiple` setting's lines split; empty ones left out. */
function toValues(inputs: BundleInput[], typed: Record<string, string>): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  for (const input of inputs) {
    const text = typed[input.key]?.trim() ?? '';
    if (text === '') continue;
    values[input.key] = input.multiple
      ? text
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
      : [text];
  }
  return values;
}

async function readBase64(file: File): Promise<string> {
  if (file.size > maxBundleBytes) {
    throw new Error(`${file.name} is ${file.size} bytes; a bundle may be at most ${maxBundleBytes / 1024 / 1024} MiB.`);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}
