// SQL for mcp_hub_calls in PostgreSQL's dialect: the tool calls clients made through the MCP hub, for the Activity
// screen (../sqlite/mcp-call-table.ts). Never the arguments or the result.

import type pg from 'pg';
import type { McpCallRow } from '../contract/mcp-calls.js';
import type { McpCallStore } from '../contract/store-interface.js';

export class PostgresMcpCallTable implements McpCallStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(row: McpCallRow): Promise<void> {
    await this.pool.query(
      `INSERT INTO mcp_hub_calls (created_at, key_id, key_name, client, server, tool, duration_ms, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        row.createdAt,
        row.keyId,
        row.keyName,
        row.client,
        row.server,
        row.tool,
        Math.max(0, Math.round(row.durationMs)),
        row.error,
      ],
    );
  }

  /** The newest calls first. */
  async recent(limit: number): Promise<McpCallRow[]> {
    const { rows } = await this.pool.query<McpCallRow>(
      `SELECT created_at AS "createdAt", key_id AS "keyId", key_name AS "keyName", client, server, tool,
         duration_ms AS "durationMs", error
       FROM mcp_hub_calls ORDER BY id DESC LIMIT $1`,
      // SQLite reads a negative LIMIT as "no limit".
      [limit < 0 ? null : limit],
    );
    return rows;
  }
}
