// A server's tools, each with its on/off switch (a tool switched off is offered neither to the chat's model nor to
// the MCP hub's clients), its auto-approve switch (the chat runs it without asking) and a way to try it; and what
// the server's tool definitions cost in every request that offers them.

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
  const [enabled, setEnabled] = useState<Record<string, boolean>>({});

  /** Shows `value` at once, asks main, then shows what main answered (or the old value and the error). */
  const toggle = async (tool: string, value: boolean, show: typeof setApproved, change: () => Promise<boolean>) => {
    setChanging((current) => new Set(current).add(tool));
    show((current) => ({ ...current, [tool]: value }));
    setError(null);
    try {
      const answered = await change();
      show((current) => ({ ...current, [tool]: answered }));
    } catch (failure) {
      show((current) => ({ ...current, [tool]: !value }));
      setError(errorMessage(failure));
    } finally {
      setChanging((current) => {
        const next = new Set(current);
        next.delete(tool);
        return next;
      });
    }
  };
  const setAutoApprove = (tool: string, autoApprove: boolean) =>
    toggle(tool, autoApprove, setApproved, async () =>
      (await bridge.invoke('mcp:set-auto-approve', { name: server.name, tool, autoApprove })).autoApprove.includes(
        tool,
      ),
    );
  const setToolEnabled = (tool: string, on: boolean) =>
    toggle(
      tool,
      on,
      setEnabled,
      async () =>
        !(
          await bridge.invoke('mcp:set-tool-disabled', { name: server.name, tool, disabled: !on })
        ).disabledTools.includes(tool),
    );
  const isEnabled = (tool: McpTool) => enabled[tool.name] ?? !tool.disabled;

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
        <>
          <SchemaCost tools={tools.data} isEnabled={isEnabled} />
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
                    label={`Offer ${tool.name} to models and MCP clients`}
                    text="On"
                    checked={isEnabled(tool)}
                    disabled={changing.has(tool.name)}
                    onChange={(checked) => void setToolEnabled(tool.name, checked)}
                  />
                  <Switch
                    label={`Auto-approve ${tool.name}`}
                    text="Auto-approve"
                    checked={approved[tool.name] ?? tool.autoApprove}
                    disabled={changing.has(tool.name) || !isEnabled(tool)}
                    onChange={(checked) => void setAutoApprove(tool.name, checked)}
                  />
                  <button type="button" aria-label={`Run ${tool.name}`} onClick={() => setRunning(tool)}>
                    Run
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {running ? <RunToolDialog server={server.name} tool={running} onClose={() => setRunning(null)} /> : null}
    </div>
  );
}

/** What the tools that are on add to every request that offers them to a model. */
function SchemaCost({ tools, isEnabled }: { tools: McpTool[]; isEnabled: (tool: McpTool) => boolean }) {
  const on = tools.filter(isEnabled);
  const tokens = on.reduce((sum, tool) => sum + tool.schemaTokens, 0);
  return (
    <p className="muted" aria-label="Tool definitions cost">
      {on.length} of {tools.length} tools on: their definitions cost about {tokens.toLocaleString()} tokens in every
      request that offers them.
    </p>
  );
}
