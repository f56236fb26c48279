// SQL for mcp_hub_calls: one row per tool call that a client made through the MCP hub (`/mcp` or `switchyard mcp
// serve`), for the Activity screen. Never the arguments or the result: they may hold anything the tool reads.

import type { Database, Statement } from 'better-sqlite3';
import type { McpCallRow } from '../contract/mcp-calls.js';

interface McpCallColumns {
  created_at: number;
  key_id: string | null;
  key_name: string | null;
  client: string | null;
  server: string;
  tool: string;
  duration_ms: number;
  error: string | null;
}

const columns = 'created_at, key_id, key_name, client, server, tool, duration_ms, error';

export const mcpCallsSchema = `
  CREATE TABLE mcp_hub_calls (
    id INTEGER PRIMARY KEY,
    created_at INTEGER NOT NULL,
    key_id TEXT,
    key_name TEXT,
    client TEXT,
    server TEXT NOT NULL,
    tool TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    error TEXT
  ) STRICT;
  CREATE INDEX mcp_hub_calls_by_time ON mcp_hub_calls (created_at);
`;

export class McpCallTable {
  private readonly insertStatement: Statement<[McpCallColumns]>;
  private readonly recentStatement: Statement<[number], McpCallColumns>;

  constructor(db: Database) {
    this.insertStatement = db.prepare(
      `INSERT INTO mcp_hub_calls (${columns})
       VALUES (@created_at, @key_id, @key_name, @client, @server, @tool, @duration_ms, @error)`,
    );
    this.recentStatement = db.prepare(`SELECT ${columns} FROM mcp_hub_calls ORDER BY id DESC LIMIT ?`);
  }

  insert(row: McpCallRow): void {
    this.insertStatement.run({
      created_at: row.createdAt,
      key_id: row.keyId,
      key_name: row.keyName,
      client: row.client,
      server: row.server,
      tool: row.tool,
      duration_ms: Math.max(0, Math.round(row.durationMs)),
      error: row.error,
    });
  }

  /** The newest calls first. */
  recent(limit: number): McpCallRow[] {
    return this.recentStatement.all(limit).map((row) => ({
      createdAt: row.created_at,
      keyId: row.key_id,
      keyName: row.key_name,
      client: row.client,
      server: row.server,
      tool: row.tool,
      durationMs: row.duration_ms,
      error: row.error,
    }));
  }
}
