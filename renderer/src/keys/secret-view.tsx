// A created key's secret, this once: nothing keeps it after the dialog closes (the database has only its hash).

import { CopyButton } from '../ui/copy-button.js';
import { CloseAction, Dialog } from '../ui/dialog.js';

export function SecretView({ name, secret, onClose }: { name: string; secret: string; onClose(): void }) {
  return (
    <Dialog title={`Key "${name}" created`} onClose={onClose} wide>
      <p className="notice" role="alert">
        Copy the key now: this is the only time it is shown. Switchyard keeps only a hash of it.
      </p>
      <div className="secret-row">
        <input
          className="mono secret"
          aria-label="New API key"
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
        />
        <CopyButton text={secret} what="API key" />
      </div>
      <p className="muted">Use it as the Bearer token of requests to the gateway, e.g. in SWITCHYARD_API_KEY.</p>
      <CloseAction label="Done" onClose={onClose} />
    </Dialog>
  );
}
