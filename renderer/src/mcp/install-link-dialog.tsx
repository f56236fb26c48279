// An install link's confirmation (`switchyard://mcp/install?…`, or `/ui/mcp/install?…` in the browser): main reads
// the link and says what it would write; this shows all of it — the entry's name, the exact command, the variables
// it gets and which of their values go to the secret store — and writes only when the person confirms. A registry
// name opens the registry's install form, with a warning when the link names another registry than the app's.
// A link main refuses shows why, and writes nothing.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { InstallLinkPreview } from '../../../shared/mcp/install-link.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice, Loading, TextField } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';
import { RegistryInstallDialog } from './registry-install-dialog.js';
import { ReviewList } from './run-review.js';

interface InstallLinkDialogProps {
  link: string;
  onClose(): void;
  onInstalled(entryName: string): void;
}

export function InstallLinkDialog({ link, onClose, onInstalled }: InstallLinkDialogProps) {
  const bridge = useBridge();
  const preview = useLoad(useCallback(() => bridge.invoke('mcp:install-link-preview', { link }), [bridge, link]));
  if (preview.data?.kind === 'registry') {
    const { name, version, registry, otherRegistry } = preview.data;
    return (
      <RegistryInstallDialog
        name={name}
        {...(version ? { version } : {})}
        {...(registry ? { registry } : {})}
        warning={
          otherRegistry
            ? `This link installs from ${registry}, not from the registry this app uses. Install only if you trust it.`
            : undefined
        }
        onClose={onClose}
        onInstalled={onInstalled}
      />
    );
  }
  return (
    <Dialog title="Install from a link" onClose={onClose} wide>
      {preview.error ? (
        <>
          <p className="notice notice-error" role="alert">
            This link cannot be installed: {preview.error}
          </p>
          <p className="muted">Nothing was saved.</p>
          <div className="dialog-actions">
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : preview.data ? (
        <ConfigConfirmation link={link} preview={preview.data} onClose={onClose} onInstalled={onInstalled} />
      ) : (
        <Loading what="the link" />
      )}
    </Dialog>
  );
}

function ConfigConfirmation(props: {
  link: string;
  preview: Extract<InstallLinkPreview, { kind: 'config' }>;
  onClose(): void;
  onInstalled(entryName: string): void;
}) {
  const { link, preview, onClose, onInstalled } = props;
  const bridge = useBridge();
  const [entryName, setEntryName] = useState(preview.entryName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { review, secrets } = preview;
  // Cancel starts with the focus (as in every run confirmation), so Enter adds nothing; the dialog opened on its
  // loading line, before this button was there.
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      onInstalled((await bridge.invoke('mcp:install-link-confirm', { link, entryName: entryName.trim() })).entryName);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="What the link adds" className="registry-review">
      <p>
        A link asks to add the MCP server “{preview.requestedName}”. Nothing is saved until you choose Add. It runs on
        this computer, as you, with access to what you can access: add it only if you trust where the link came from.
      </p>
      {preview.clash ? (
        <p className="notice" role="status">
          A server named “{preview.requestedName}” exists already; this one is added under another name.
        </p>
      ) : null}
      <TextField label="Name" value={entryName} onChange={setEntryName} autoComplete="off" />
      <ReviewList reviews={[{ ...review, name: entryName }]} />
      {review.envNames.length > 0 ? (
        <ul aria-label="Values it sets">
          {review.envNames.map((name) => (
            <li key={name}>
              <code>{name}</code>
              {secrets.includes(name) ? ' — secret: its value goes to the secret store, not the settings file' : ''}
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorNotice message={error} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose} ref={cancel}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy || entryName.trim() === ''}
          onClick={() => void confirm()}
        >
          Add and start
        </button>
      </div>
    </section>
  );
}
