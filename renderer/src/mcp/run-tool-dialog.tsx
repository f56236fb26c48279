// Calls one tool with JSON arguments, as `switchyard mcp call` does, and shows what it returned.

import { useState } from 'react';
import type { McpTool, McpToolOutcome } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice } from '../ui/parts.js';
import { ToolMediaList } from '../ui/tool-media.js';

/** `{"message": ""}` for a schema with a required string `message`: a start the user fills in. */
function skeleton(schema: unknown): string {
  const { properties, required } = (schema ?? {}) as {
    properties?: Record<string, { type?: string }>;
    required?: string[];
  };
  const start: Record<string, unknown> = {};
  for (const name of required ?? []) {
    const type = properties?.[name]?.type;
    start[name] =
      type === 'number' || type === 'integer'
        ? 0
        : type === 'boolean'
          ? false
          : type === 'array'
            ? []
            : type === 'object'
              ? {}
              : '';
  }
  return JSON.stringify(start, null, 2);
}

export function RunToolDialog({ server, tool, onClose }: { server: string; tool: McpTool; onClose(): void }) {
  const bridge = useBridge();
  const [args, setArgs] = useState(() => skeleton(tool.inputSchema));
  const [result, setResult] = useState<McpToolOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async () => {
    setError(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch (failure) {
      setError(`The arguments are not valid JSON: ${errorMessage(failure)}`);
      return;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      setError('The arguments must be a JSON object.');
      return;
    }
    setBusy(true);
    try {
      setResult(
        await bridge.invoke('mcp:call-tool', {
          name: server,
          tool: tool.name,
          arguments: parsed as Record<string, unknown>,
        }),
      );
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Run ${tool.name}`} onClose={onClose} wide description={tool.description}>
      <label className="field">
        <span className="field-label">Arguments (JSON)</span>
        <textarea
          className="mono"
          rows={6}
          spellCheck={false}
          value={args}
          onChange={(event) => setArgs(event.target.value)}
        />
      </label>
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
