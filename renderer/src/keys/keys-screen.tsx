// Gateway API keys: create (the secret is shown once), list with usage, change rules, delete.

import { useCallback, useState } from 'react';
import { chatKeyName } from '../../../shared/bridge/chat-message.js';
import {
  describeAccess,
  describeKeyState,
  describeLimit,
  describeRate,
  formatCost,
  type KeyWithUsage,
} from '../../../shared/api/index.js';
import { useBridge, useBridgeEvent } from '../bridge/bridge-context.js';
import { ConfirmDialog } from '../ui/dialog.js';
import { count, when } from '../ui/format.js';
import { EmptyState, Loaded, Screen } from '../ui/parts.js';
import { Table } from '../ui/table.js';
import { useLoad } from '../ui/use-load.js';
import { KeyDialog } from './key-dialog.js';

type Editing = { type: 'create' } | { type: 'edit'; key: KeyWithUsage } | null;

export function KeysScreen() {
  const bridge = useBridge();
  const keys = useLoad(useCallback(async () => (await bridge.invoke('keys:list')).keys, [bridge]));
  const models = useLoad(useCallback(async () => (await bridge.invoke('models:list')).models, [bridge]));
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<KeyWithUsage | null>(null);
  // Requests change what keys spent and where they stand (a limit reached).
  useBridgeEvent('usage:recorded', () => void keys.reload());

  const remove = async () => {
    if (!deleting) return;
    await bridge.invoke('keys:delete', { id: deleting.id });
    setDeleting(null);
    void keys.reload();
  };

  const create = () => setEditing({ type: 'create' });

  return (
    <Screen
      title="API keys"
      actions={
        <button type="button" className="primary" onClick={create}>
          Create key
        </button>
      }
    >
      <p className="muted screen-intro">
        Apps and scripts use these keys to call the gateway. A key&apos;s secret is shown once, when it is created.
      </p>
      <Loaded
        loaded={keys}
        what="keys"
        empty={
          <EmptyState title="No API keys yet">
            <p>Create one for each app or script that calls the gateway, so you can see and limit what each spends.</p>
            <button type="button" className="primary" onClick={create}>
              Create a key
            </button>
          </EmptyState>
        }
      >
        {(list) => (
          <Table
            label="API keys"
            className="keys-table"
            columns={['Name', 'Key', 'Models', 'Limit', 'Rate', 'Expires', 'Last used', 'Requests', 'Spent', 'State']}
            numbers={['Requests', 'Spent']}
            actions="Actions"
          >
            {list.map((key) => (
              <tr key={key.id}>
                {/* data-label: each cell's column, shown above it when a narrow window stacks a key as a card. */}
                <td className="key-name" data-label="Name">
                  {key.name}
                  {key.name === chatKeyName ? (
                    <span className="key-note muted">
                      This app&apos;s Chat sends its requests through the gateway with this key, so they count in
                      Activity like any app&apos;s. Deleted, it is made again at the next message; disabled, the chat
                      stops until it is enabled.
                    </span>
                  ) : null}
                </td>
                <td className="mono" data-label="Key">
                  {key.label}
                </td>
                <td className="key-models" data-label="Models">
                  {describeAccess(key).replaceAll(',', ', ')}
                </td>
                <td data-label="Limit">{describeLimit(key)}</td>
                <td data-label="Rate">{describeRate(key)}</td>
                <td data-label="Expires">{when(key.expires_at)}</td>
                <td data-label="Last used">{when(key.last_used_at)}</td>
                <td className="number" data-label="Requests">
                  {count(key.usage.requests)}
                </td>
                <td className="number" data-label="Spent">
                  {formatCost(key.usage.cost, key.usage)}
                </td>
                <td data-label="State">
                  <span className={`badge state-${key.state}`}>{describeKeyState(key.state)}</span>
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    aria-label={`Edit ${key.name}`}
                    onClick={() => setEditing({ type: 'edit', key })}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Delete ${key.name}`}
                    onClick={() => setDeleting(key)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>

      {editing ? (
        <KeyDialog
          apiKey={editing.type === 'edit' ? editing.key : undefined}
          models={models.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={() => {
            // A created key's dialog stays open to show its secret; an edited one closes.
            if (editing.type === 'edit') setEditing(null);
            void keys.reload();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete key ${deleting.name}?`}
          message="Anything using it gets 401 from its next request. This cannot be undone."
          confirmLabel="Delete key"
          onConfirm={remove}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </Screen>
  );
}
