// One server: its state (and why, when it failed), enable/disable, restart, edit, remove, and its tools, log and
// resources.

import { useState } from 'react';
import type { McpEditableServer, McpServerStatus } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { ConfirmDialog } from '../ui/dialog.js';
import { ErrorNotice, StatusDot, Switch } from '../ui/parts.js';
import { Tabs } from '../ui/tabs.js';
import { LogsPanel } from './logs-panel.js';
import { ResourcesPanel } from './resources-panel.js';
import { dotOf, stateText } from './server-status.js';
import { SignInNotice } from './sign-in-notice.js';
import { ToolsPanel } from './tools-panel.js';
import { useChanged } from '../ui/use-changed.js';

interface ServerDetailProps {
  server: McpServerStatus;
  /** The entry as written, for the form; undefined while the settings load. */
  editable: McpEditableServer | undefined;
  onEdit(): void;
  onChanged(): void;
}

export function ServerDetail({ server, editable, onEdit, onChanged }: ServerDetailProps) {
  const bridge = useBridge();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  /** Runs an action, showing its failure in place; false when it failed. */
  const act = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await action();
      onChanged();
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };

  // The switch moves at once; the server follows (stopping one can take a few seconds).
  const [wanted, setWanted] = useState<boolean | null>(null);
  if (useChanged(server.state)) setWanted(null);
  const enabled = server.state !== 'disabled';
  const invalid = server.state === 'error' && server.transport === undefined;
  return (
    <section className="server-detail" aria-label={`Server ${server.name}`}>
      <header className="server-header">
        <div>
          <h2>
            <StatusDot state={dotOf[server.state]} label={server.state} />
            {server.name}
          </h2>
          <p className="muted server-state" aria-live="polite">
            {stateText(server)}
            {server.transport ? ` · ${server.transport}` : ''}
            {server.pid ? ` · pid ${server.pid}` : ''}
          </p>
        </div>
        <div className="server-actions">
          <Switch
            label={`Enable ${server.name}`}
            text="Enabled"
            checked={wanted ?? enabled}
            disabled={busy || invalid}
            onChange={(checked) => {
              setWanted(checked);
              void act(() => bridge.invoke('mcp:set-disabled', { name: server.name, disabled: !checked })).then(
                (done) => done || setWanted(null),
              );
            }}
          />
          <button
            type="button"
            disabled={busy || !enabled || invalid}
            onClick={() => void act(() => bridge.invoke('mcp:restart', { name: server.name }))}
          >
            Restart
          </button>
          {server.signedIn ? (
            <button
              type="button"
              disabled={busy}
              onClick={() => void act(() => bridge.invoke('mcp:sign-out', { name: server.name }))}
            >
              Sign out
            </button>
          ) : null}
          <button type="button" disabled={!editable} onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Remove
          </button>
        </div>
      </header>
      {server.state === 'error' || server.state === 'disconnected' ? (
        server.message ? (
          <p className={server.state === 'error' ? 'notice notice-error' : 'notice'} role="alert">
            {server.message}
          </p>
        ) : null
      ) : null}
      {server.state === 'needs-sign-in' ? <SignInNotice key={`sign-in-${server.name}`} server={server} /> : null}
      {server.warning ? <p className="notice">{server.warning}</p> : null}
      <ErrorNotice message={error} />
      <Tabs
        key={server.name}
        label={`${server.name} details`}
        tabs={[
          { id: 'tools', label: 'Tools', content: () => <ToolsPanel server={server} /> },
          { id: 'logs', label: 'Log', content: () => <LogsPanel name={server.name} /> },
          { id: 'resources', label: 'Resources', content: () => <ResourcesPanel server={server} /> },
        ]}
      />
      {confirming ? (
        <ConfirmDialog
          title={`Remove server ${server.name}?`}
          message="It is stopped and its entry is deleted from mcp_settings.json."
          confirmLabel="Remove server"
          error={error}
          onConfirm={() =>
            act(async () => {
              await bridge.invoke('mcp:remove-server', { name: server.name });
              setConfirming(false);
            })
          }
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
