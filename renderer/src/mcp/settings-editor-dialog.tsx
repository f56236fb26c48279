// mcp_settings.json as text, for what the form does not cover. Saving is refused, with the line and column or the
// field, while the text is not valid; it is also refused when the file changed since it was opened here.

import { useCallback, useId, useState } from 'react';
import type { McpSettingsProblem } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice, Loading } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

export function SettingsEditorDialog({ onClose, onSaved }: { onClose(): void; onSaved(): void }) {
  const bridge = useBridge();
  const settings = useLoad(useCallback(() => bridge.invoke('mcp:get-settings'), [bridge]));
  const [text, setText] = useState<string | null>(null);
  const [problems, setProblems] = useState<McpSettingsProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const problemsId = useId();
  const current = text ?? settings.data?.text ?? '';

  const save = async () => {
    if (!settings.data) return;
    setError(null);
    try {
      const result = await bridge.invoke('mcp:save-settings', { text: current, expectedText: settings.data.text });
      setProblems(result.problems);
      if (result.saved) onSaved();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const errors = problems.filter((problem) => problem.severity === 'error');
  return (
    <Dialog title="Edit mcp_settings.json" onClose={onClose} wide description={settings.data?.path}>
      <ErrorNotice message={settings.error} />
      {settings.data === undefined ? (
        <Loading what="the settings" />
      ) : (
        <textarea
          className="mono json-editor"
          aria-label="Settings JSON"
          spellCheck={false}
          rows={18}
          value={current}
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={problems.length > 0 ? problemsId : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setProblems([]);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void save();
          }}
        />
      )}
      {problems.length > 0 ? (
        <ul id={problemsId} className="problems" role="alert" aria-label="Problems">
          {problems.map((problem) => (
            <li key={`${problem.path}:${problem.message}`} className={problem.severity}>
              <span className="mono">{problem.path}</span>: {problem.message}
              {problem.severity === 'warning' ? ' (saved with the corrected value)' : ''}
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorNotice message={error} />
      <div className="dialog-actions">
        <span className="muted">Ctrl+Enter saves.</span>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={settings.data === undefined} onClick={() => void save()}>
          Save
        </button>
      </div>
    </Dialog>
  );
}
