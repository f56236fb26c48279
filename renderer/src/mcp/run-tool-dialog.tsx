// Calls one tool, as `switchyard mcp call` does, and shows what it returned (text, images, audio). The arguments
// are filled in a form made from the tool's input schema, or written as JSON; both edit the same value.

import { useMemo, useState } from 'react';
import type { McpTool, McpToolOutcome } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice, Field, Switch } from '../ui/parts.js';
import { ToolMediaList } from '../ui/tool-media.js';
import { initialArguments, schemaFields, validateArguments, withValueAt } from './schema-args.js';
import { SchemaForm } from './schema-form.js';

/** The JSON editor's text as arguments: an object, or why not. */
function parseArguments(text: string): { value: Record<string, unknown> | null; error: string | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (failure) {
    return { value: null, error: `Not valid JSON: ${errorMessage(failure)}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { value: null, error: 'The arguments must be a JSON object.' };
  }
  return { value: parsed as Record<string, unknown>, error: null };
}

type Mode = 'form' | 'json';

export function RunToolDialog({ server, tool, onClose }: { server: string; tool: McpTool; onClose(): void }) {
  const bridge = useBridge();
  const fields = useMemo(() => schemaFields(tool.inputSchema), [tool.inputSchema]);
  const [args, setArgs] = useState<Record<string, unknown>>(() => initialArguments(fields ?? []));
  const [mode, setMode] = useState<Mode>(fields ? 'form' : 'json');
  const [jsonText, setJsonText] = useState(() => JSON.stringify(args, null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);
  // Errors show once a run was tried, then follow every change.
  const [tried, setTried] = useState(false);
  const [result, setResult] = useState<McpToolOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = tried && fields ? validateArguments(fields, args) : new Map<string, string>();

  const editJson = (text: string) => {
    setJsonText(text);
    const parsed = parseArguments(text);
    setJsonError(parsed.error);
    if (parsed.value) setArgs(parsed.value);
  };
  const switchMode = (json: boolean) => {
    if (json) {
      setJsonText(JSON.stringify(args, null, 2));
      setJsonError(null);
      setMode('json');
    } else if (jsonError) {
      setError('Fix the JSON before going back to the form.');
    } else {
      setError(null);
      setMode('form');
    }
  };

  const run = async () => {
    setError(null);
    setTried(true);
    if (mode === 'json' && jsonError) {
      setError(jsonError);
      return;
    }
    const found = fields ? validateArguments(fields, args) : new Map<string, string>();
    if (found.size > 0) {
      setError(
        mode === 'form'
          ? 'Some arguments need a change: see the marked fields.'
          : [...found].map(([path, problem]) => `${path}: ${problem}`).join(' '),
      );
      return;
    }
    setBusy(true);
    try {
      setResult(await bridge.invoke('mcp:call-tool', { name: server, tool: tool.name, arguments: args }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Run ${tool.name}`} onClose={onClose} wide description={tool.description}>
      {fields ? (
        <Switch
          label="Edit the arguments as JSON"
          text="Edit as JSON"
          checked={mode === 'json'}
          onChange={switchMode}
        />
      ) : (
        <p className="muted">Its input schema has parts the form cannot show: write the arguments as JSON.</p>
      )}
      {mode === 'form' && fields ? (
        <SchemaForm
          fields={fields}
          value={args}
          errors={errors}
          onChange={(path, next) => setArgs((current) => withValueAt(current, path, next))}
        />
      ) : (
        <Field label="Arguments (JSON)" error={jsonError}>
          {(props) => (
            <textarea
              {...props}
              className="mono"
              rows={8}
              spellCheck={false}
              value={jsonText}
              onChange={(event) => editJson(event.target.value)}
            />
          )}
        </Field>
      )}
      <details className="disclosure">
        <summary>Input schema</summary>
        <pre className="code-block">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
      </details>
      <ErrorNotice message={error} />
      {result ? (
        <section aria-label="Result" className={result.isError ? 'tool-result tool-result-error' : 'tool-result'}>
          <pre className="code-block">{result.text}</pre>
          <ToolMediaList media={result.media} source={tool.name} />
        </section>
      ) : null}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
        <button type="button" className="primary" disabled={busy} onClick={() => void run()}>
          {busy ? 'Running…' : 'Run'}
        </button>
      </div>
    </Dialog>
  );
}
