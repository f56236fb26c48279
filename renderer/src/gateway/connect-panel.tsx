// "Connect a tool": point Codex, Claude Code, Gemini CLI… at this gateway, as `switchyard connect` does. Connect
// creates a key named after the tool and edits the tool's own config files (main keeps backups); the new key's
// secret shows once, as on the Keys screen, only when no file of the tool took it. "Show settings" only shows what
// to add by hand, key as a placeholder. Disconnect asks first: it deletes the tool's key.

import { useCallback, useId, useState } from 'react';
import type {
  ConnectPreview,
  ConnectResult,
  ConnectToolId,
  ConnectToolInfo,
  ConnectUndoResult,
} from '../../../shared/bridge/connect-types.js';
import type { ModelOption } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { SecretView } from '../keys/secret-view.js';
import { CopyButton } from '../ui/copy-button.js';
import { ConfirmDialog } from '../ui/dialog.js';
import { ErrorNotice, Field } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

type Outcome =
  | { kind: 'connected'; result: ConnectResult }
  | { kind: 'preview'; preview: ConnectPreview }
  | { kind: 'undone'; undone: ConnectUndoResult };

export function ConnectPanel({ models }: { models: ModelOption[] }) {
  const bridge = useBridge();
  const tools = useLoad(useCallback(async () => (await bridge.invoke('connect:list')).tools, [bridge]));
  const [toolId, setToolId] = useState<ConnectToolId>('codex');
  const [model, setModel] = useState(models[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const modelListId = useId();
  const tool = tools.data?.find((candidate) => candidate.id === toolId);
  const request = { tool: toolId, ...(model.trim() ? { model: model.trim() } : {}) };

  const run = async (work: () => Promise<Outcome>) => {
    setBusy(true);
    setError(null);
    try {
      setOutcome(await work());
      await tools.reload();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const connect = () =>
    run(async () => {
      const { result, secret: created } = await bridge.invoke('connect:apply', request);
      // A key written into the tool's own files needs no copying: the secret shows only when the person has to put
      // it somewhere themselves.
      const written = result.files.some((file) => file.holdsSecret);
      setSecret(
        result.keyName !== null && created !== null && !written ? { name: result.keyName, secret: created } : null,
      );
      return { kind: 'connected', result };
    });
  const preview = () =>
    run(async () => ({ kind: 'preview', preview: await bridge.invoke('connect:preview', request) }));
  const undo = () =>
    run(async () => ({ kind: 'undone', undone: await bridge.invoke('connect:undo', { tool: toolId }) }));
  const [confirmingUndo, setConfirmingUndo] = useState(false);

  return (
    <section className="section" aria-labelledby="connect-title">
      <div className="section-header">
        <h2 id="connect-title">Connect a tool</h2>
      </div>
      <p className="muted">
        Points an agent tool at this gateway: a key named after the tool (Activity shows its spend), and the tool&apos;s
        own settings files edited, with a backup of each. Disconnect puts the files back.
      </p>
      <ErrorNotice message={tools.error ?? error} />
      <div className="panel connect-form">
        <div className="form-row">
          <Field label="Tool">
            {(props) => (
              <select
                {...props}
                value={toolId}
                onChange={(event) => {
                  setToolId(event.target.value as ConnectToolId);
                  setOutcome(null);
                }}
              >
                {(tools.data ?? []).map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.connected ? `${option.name} (connected)` : option.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Model for the tool"
            hint={
              tool?.modelOptional
                ? 'A model or an alias; empty: the tool sends its own model names (alias them).'
                : 'A model or an alias.'
            }
          >
            {(props) => (
              <>
                <input
                  {...props}
                  list={modelListId}
                  value={model}
                  placeholder="provider/model or an alias"
                  spellCheck={false}
                  onChange={(event) => setModel(event.target.value)}
                />
                <datalist id={modelListId}>
                  {models.map((option) => (
                    <option key={option.id} value={option.id} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        </div>
        {tool ? <ToolStatus tool={tool} /> : null}
        <div className="with-copy">
          <button type="button" className="primary" disabled={busy || !tool} onClick={() => void connect()}>
            {tool?.connected ? 'Connect again' : 'Connect'}
          </button>
          <button type="button" disabled={busy || !tool} onClick={() => void preview()}>
            Show settings
          </button>
          {tool?.connected ? (
            <button type="button" disabled={busy} onClick={() => setConfirmingUndo(true)}>
              Disconnect
            </button>
          ) : null}
        </div>
      </div>
      {outcome ? <OutcomeView outcome={outcome} /> : null}
      {secret ? <SecretView name={secret.name} secret={secret.secret} onClose={() => setSecret(null)} /> : null}
      {confirmingUndo && tool ? (
        <ConfirmDialog
          title={`Disconnect ${tool.name}?`}
          message={
            tool.keyId
              ? `Its settings files are put back as they were, and its key ${tool.keyId} is deleted: anything else using that key gets 401 from its next request.`
              : 'Its settings files are put back as they were.'
          }
          confirmLabel={tool.keyId ? 'Disconnect and delete the key' : 'Disconnect'}
          closeFirst
          onConfirm={undo}
          onClose={() => setConfirmingUndo(false)}
        />
      ) : null}
    </section>
  );
}

function ToolStatus({ tool }: { tool: ConnectToolInfo }) {
  return (
    <p className="muted" aria-label={`${tool.name} status`}>
      {tool.connected
        ? `Connected${tool.model ? ` with ${tool.model}` : ''}${tool.keyId ? `, key ${tool.keyId}` : ''}. `
        : 'Not connected. '}
      Files: {tool.files.join(', ')}.
    </p>
  );
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === 'preview') {
    const { preview } = outcome;
    return (
      <div className="panel" aria-label={`${preview.name} settings`}>
        <h2>Settings for {preview.name}</h2>
        <p className="muted">Nothing was changed. Put a key where {preview.keyPlaceholder} stands.</p>
        {preview.files.map((file) => (
          <figure key={file.path} className="snippet" aria-label={file.path}>
            <figcaption>
              <span>{file.path}</span>
              <CopyButton text={file.text} what={`settings for ${file.path}`} />
            </figcaption>
            <pre tabIndex={0}>
              <code>{file.text}</code>
            </pre>
          </figure>
        ))}
        <Notes notes={preview.notes} />
      </div>
    );
  }
  if (outcome.kind === 'undone') {
    const { undone } = outcome;
    return (
      <div className="panel" role="status" aria-label={`${undone.name} disconnected`}>
        <h2>{undone.wasConnected ? `Disconnected ${undone.name}` : `${undone.name} was not connected`}</h2>
        <ul>
          {undone.files.map((file) => (
            <li key={file.path}>
              {file.path}: {undoActions[file.action]}
              {file.savedAs ? `; your later edits are in ${file.savedAs}` : ''}
            </li>
          ))}
          {undone.deletedKeyId ? <li>Deleted key {undone.deletedKeyId}.</li> : null}
        </ul>
      </div>
    );
  }
  const { result } = outcome;
  const keyFile = result.files.find((file) => file.holdsSecret);
  return (
    <div className="panel" role="status" aria-label={`${result.name} connected`}>
      <h2>Connected {result.name}</h2>
      {result.keyId ? (
        <p>
          Key {result.keyId} (&quot;{result.keyName}&quot;)
          {result.replacedKeyId ? ` replaces key ${result.replacedKeyId}, now deleted.` : ' created.'}
          {keyFile ? ` It is written into ${keyFile.path} for ${result.name}: there is nothing to copy.` : ''}
        </p>
      ) : null}
      <ul>
        {result.files.map((file) => (
          <li key={file.path}>
            <code>{file.path}</code>
            {file.created ? ' (new file)' : ` (original kept in ${file.backupPath})`}
            {file.holdsSecret ? ', holds the key, readable by you only' : ''}: set {file.keys.join(', ')}
          </li>
        ))}
      </ul>
      <Notes notes={result.notes} />
    </div>
  );
}

const undoActions = {
  restored: 'restored from its backup',
  removed: 'removed (connect had created it)',
  'backup-missing': 'left as it is: its backup is gone',
} as const;

function Notes({ notes }: { notes: string[] }) {
  return (
    <>
      <p>
        <strong>Still to do</strong>
      </p>
      <ul>
        {notes.map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
    </>
  );
}
