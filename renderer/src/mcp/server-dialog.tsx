// Add or edit one MCP server in a form. Nothing is written while main finds an error; each error shows under
// its field. Env values and headers are masked until revealed. A new server, or a change of what one runs, is
// shown as the exact command line first and saved (and so started) only once the person confirms it.

import { useState, type FormEvent } from 'react';
import type { McpEditableServer, McpSecretHint } from '../../../shared/bridge/types.js';
import { reviewServerEntry, type EntryReview } from '../../../shared/mcp/review-entry.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { KeyValueEditor } from '../ui/key-value-editor.js';
import { Field, TextField } from '../ui/parts.js';
import { ConfirmRunDialog } from './run-review.js';
import { SamplingFields } from './sampling-fields.js';
import {
  clientSecretChange,
  isSecretPair,
  problemsByField,
  secretValuesOf,
  toEntry,
  toForm,
  type FormField,
  type ServerForm,
} from './server-form.js';

interface ServerDialogProps {
  /** Absent: a new server. */
  server?: McpEditableServer;
  /** The settings' stored secrets, masked, for the fields that reference them. */
  secrets?: McpSecretHint[];
  onClose(): void;
  onSaved(name: string): void;
}

export function ServerDialog({ server, secrets, onClose, onSaved }: ServerDialogProps) {
  const bridge = useBridge();
  const [form, setForm] = useState<ServerForm>(() => toForm(server?.name ?? '', server?.entry ?? null, secrets));
  const [problems, setProblems] = useState<Partial<Record<FormField | 'general', string>>>(() =>
    problemsByField(server?.problems.filter((problem) => problem.severity === 'error') ?? []),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<EntryReview | null>(null);
  const set = <K extends keyof ServerForm>(field: K, value: ServerForm[K]) =>
    setForm((current) => ({ ...current, [field]: value }));

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const name = form.name.trim();
      const clientSecret = clientSecretChange(form, server?.clientSecretSet ?? false);
      const values = secretValuesOf(form);
      const result = await bridge.invoke('mcp:set-server', {
        name,
        entry: toEntry(form, server?.entry ?? null),
        ...(server ? { previousName: server.name } : {}),
        ...(clientSecret === undefined ? {} : { clientSecret }),
        ...(Object.keys(values).length > 0 ? { secrets: values } : {}),
      });
      if (result.saved) onSaved(name);
      else setProblems(problemsByField(result.problems));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const review = reviewServerEntry(form.name.trim(), toEntry(form, server?.entry ?? null));
    const before = server?.entry ? reviewServerEntry(server.name, server.entry) : null;
    const runsSomethingNew =
      before === null || before.runs !== review.runs || String(before.envNames) !== String(review.envNames);
    if (runsSomethingNew) setConfirming(review);
    else await save();
  };

  const lockable = { isSecret: isSecretPair };
  const secretHint = (
    <small className="field-hint">
      Locked values go to the secret store (the OS keychain, or a private file without one); the settings file only
      names them, as ${'{'}secret:NAME{'}'}.
    </small>
  );

  const textField = (field: FormField & keyof ServerForm, label: string, hint?: string, placeholder?: string) => (
    <TextField
      label={label}
      error={problems[field]}
      hint={hint}
      spellCheck={false}
      autoComplete="off"
      placeholder={placeholder}
      value={form[field] as string}
      onChange={(value) => set(field, value)}
    />
  );

  return (
    <Dialog title={server ? `Edit server ${server.name}` : 'Add an MCP server'} onClose={onClose} wide>
      <form className="form" onSubmit={(event) => void submit(event)}>
        {textField('name', 'Name', 'Tools are offered to models as "<name>__<tool>".', 'filesystem')}
        <fieldset className="fieldset">
          <legend>Runs as</legend>
          <label className="checkbox">
            <input type="radio" name="kind" checked={form.kind === 'stdio'} onChange={() => set('kind', 'stdio')} />A
            local command (stdio)
          </label>
          <label className="checkbox">
            <input type="radio" name="kind" checked={form.kind === 'remote'} onChange={() => set('kind', 'remote')} />A
            remote server (HTTP)
          </label>
        </fieldset>

        {form.kind === 'stdio' ? (
          <>
            {textField('command', 'Command', 'Looked up in your login shell’s PATH too.', 'npx')}
            <Field label="Arguments" error={problems.args} hint="One per line.">
              {(props) => (
                <textarea
                  {...props}
                  rows={3}
                  spellCheck={false}
                  className="mono"
                  value={form.args}
                  onChange={(event) => set('args', event.target.value)}
                />
              )}
            </Field>
            {textField('cwd', 'Working directory', 'Optional.')}
            <div className="field">
              <span className="field-label">Environment</span>
              <KeyValueEditor
                noun="Environment variable"
                pairs={form.env}
                onChange={(pairs) => set('env', pairs)}
                secrets={lockable}
              />
              {problems.env ? <small className="field-error">{problems.env}</small> : secretHint}
            </div>
          </>
        ) : (
          <>
            {textField('url', 'URL', undefined, 'https://example.com/mcp')}
            <Field label="Transport" error={problems.type}>
              {(props) => (
                <select
                  {...props}
                  value={form.transport}
                  onChange={(event) => set('transport', event.target.value as ServerForm['transport'])}
                >
                  <option value="auto">Automatic (streamable HTTP, then SSE)</option>
                  <option value="streamableHttp">Streamable HTTP</option>
                  <option value="sse">SSE</option>
                </select>
              )}
            </Field>
            <div className="field">
              <span className="field-label">Headers</span>
              <KeyValueEditor
                noun="Header"
                namePlaceholder="Authorization"
                pairs={form.headers}
                onChange={(pairs) => set('headers', pairs)}
                secrets={lockable}
              />
              {problems.headers ? <small className="field-error">{problems.headers}</small> : secretHint}
            </div>
            <div className="form-row">
              <TextField
                label="OAuth client ID"
                error={problems.oauth}
                hint="Only for a server without dynamic registration: the client registered for Switchyard there."
                spellCheck={false}
                autoComplete="off"
                value={form.clientId}
                onChange={(value) => set('clientId', value)}
              />
              <TextField
                label="OAuth client secret"
                type="password"
                hint={
                  server?.clientSecretSet
                    ? 'A secret is set (in the keychain); type a new one to replace it.'
                    : 'Optional; kept in the keychain.'
                }
                autoComplete="new-password"
                disabled={form.clientId.trim() === ''}
                value={form.clientSecret}
                onChange={(value) => set('clientSecret', value)}
              />
            </div>
          </>
        )}

        <div className="form-row">
          {textField('timeout', 'Tool timeout (seconds)', 'Default 60; 1 to 3600.', '60')}
          {textField('startupTimeout', 'Start-up timeout (seconds)', 'Default 30.', '30')}
        </div>
        <SamplingFields
          model={form.samplingModel}
          approval={form.samplingApproval}
          error={problems.sampling}
          onModelChange={(model) => set('samplingModel', model)}
          onApprovalChange={(approval) => set('samplingApproval', approval)}
        />
        <FormActions
          submitLabel={server ? 'Save' : 'Add server'}
          onCancel={onClose}
          error={problems.general ?? error}
          busy={busy}
        />
      </form>
      {confirming ? (
        <ConfirmRunDialog
          title={`Start ${confirming.name || 'this server'}?`}
          reviews={[confirming]}
          confirmLabel={server ? 'Save and restart' : 'Add and start'}
          onConfirm={async () => {
            setConfirming(null);
            await save();
          }}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </Dialog>
  );
}
