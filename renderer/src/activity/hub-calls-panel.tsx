// Tool calls that other MCP clients (Claude Desktop, Cursor, scripts) made through the MCP hub: when, which key
// and client, which server and tool, how long, and whether it failed. Never arguments or results.

import { useCallback } from 'react';
import { useBridge } from '../bridge/bridge-context.js';
import { count, when } from '../ui/format.js';
import { ErrorNotice } from '../ui/parts.js';
import { Table } from '../ui/table.js';
import { useLoad } from '../ui/use-load.js';

export function HubCallsPanel() {
  const bridge = useBridge();
  const calls = useLoad(useCallback(async () => (await bridge.invoke('mcp:hub-calls', { limit: 50 })).calls, [bridge]));
  return (
    <section className="panel" aria-labelledby="hub-calls-title">
      <h2 id="hub-calls-title">MCP hub tool calls</h2>
      <ErrorNotice message={calls.error} />
      {calls.data?.length === 0 ? (
        <p className="muted">
          No calls yet. Clients pointed at the hub (/mcp, or switchyard mcp serve) show their tool calls here.
        </p>
      ) : null}
      {calls.data && calls.data.length > 0 ? (
        <Table
          label="MCP hub tool calls"
          columns={['Time', 'Key', 'Client', 'Server', 'Tool', 'Duration', 'Result']}
          numbers={['Duration']}
        >
          {calls.data.map((call, index) => (
            <tr key={`${call.createdAt}-${index}`}>
              <td>{when(call.createdAt)}</td>
              <td>{call.keyName ?? (call.keyId === null ? 'stdio (no key)' : call.keyId)}</td>
              <td>{call.client ?? ''}</td>
              <td className="mono">{call.server}</td>
              <td className="mono">{call.tool}</td>
              <td className="number">{count(call.durationMs)} ms</td>
              <td>
                {call.error === null ? (
                  <span className="badge">ok</span>
                ) : (
                  <span className="badge state-disabled" title={call.error}>
                    error
                  </span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}
