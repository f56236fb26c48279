// A server's tools, each with its auto-approve switch (the chat runs it without asking) and a way to try it.

import { useCallback, useMemo, useState } from 'react';
import type { McpServerStatus, McpTool } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { EmptyState, ErrorNotice, Loading, Switch } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';
import { RunToolDialog } from './run-tool-dialog.js';

export function ToolsPanel({ server }: { server: McpServerStatus }) {
  const bridge = useBridge();
  // Listed again when the server (re)connects or its tool count changes.
  const listed = useMemo(
    () => ({ name: server.name, state: server.state, toolCount: server.toolCount }),
    [server.name, server.state, server.toolCount],
  );
  const tools = useLoad(
    useCallback(async () => (await bridge.invoke('mcp:list-tools', { name: listed.name })).tools, [bridge, listed]),
  );
  const [changing, setChanging] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState<McpTool | null>(null);
  const [approved, setApproved] = useState<Record<string, boolean>>({});

  const toggle = async (tool: string, autoApprove: boolean) => {
    setChanging((current) => new Set(current).add(tool));
    setApproved((current) => ({ ...current, [tool]: autoApprove }));
    setError(null);
    try {
      const answer = await bridge.invoke('mcp:set-auto-approve', { name: server.name, tool, autoApprove });
      setApproved((current) => ({ ...current, [tool]: answer.autoApprove.includes(tool) }));
    } catch (failure) {
      setApproved((current) => ({ ...current, [tool]: !autoApprove }));
      setError(errorMessage(failure));
    } finally {
      setChanging((current) => {
        const next = new Set(current);
        next.delete(tool);
        return next;
      });
    }
  };

  if (server.state !== 'connected' && (tools.data?.length ?? 0) === 0) {
    return (
      <EmptyState title="No tools to show">
        <p>
          {server.state === 'disabled' ? 'Enable the server to see its tools.' : 'Its tools show once it is connected.'}
        </p>
      </EmptyState>
    );
  }
  return (
    <div>
      <ErrorNotice message={tools.error ?? error} />
      {tools.data === undefined ? (
        <Loading what="tools" />
      ) : tools.data.length === 0 ? (
        <EmptyState title="This server has no tools" />
      ) : (
        <ul className="tool-list" aria-label="Tools">
          {tools.data.map((tool) => (
            <li key={tool.name} className="tool">
              <div className="tool-text">
                <span className="mono tool-name">{tool.name}</span>
                {tool.title && tool.title !== tool.name ? <span className="tool-title">{tool.title}</span> : null}
                {tool.description ? <p className="muted tool-description">{tool.description}</p> : null}
              </div>
              <div className="tool-actions">
                <Switch
                  label={`Auto-approve ${tool.name}`}
                  text="Auto-approve"
                  checked={approved[tool.name] ?? tool.autoApprove}
                  disabled={changing.has(tool.name)}
                  onChange={(checked) => void toggle(tool.name, checked)}
                />
                <button type="button" aria-label={`Run ${tool.name}`} onClick={() => setRunning(tool)}>
                  Run
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {running ? <RunToolDialog server={server.name} tool={running} onClose={() => setRunning(null)} /> : null}
    </div>
  );
}
