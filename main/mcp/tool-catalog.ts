// The tools of every connected server, as OpenAI function tools for the chat. Function names must match
// ^[a-zA-Z0-9_-]{1,64}$ and be unique across servers, and must stay the same from one request to the next
// (a conversation refers back to them): `server__tool`, sanitised, with a short hash of the original pair
// when it had to be truncated or two pairs would otherwise share a name. Calls map back through `resolve`.

import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FunctionTool } from '../../shared/api/index.js';
import type { ToolHints } from '../../shared/bridge/types.js';

export const maxFunctionNameLength = 64;
const separator = '__';
const hashLength = 8;

export interface CatalogServer {
  server: string;
  tools: Tool[];
  /** MCP tool names this server may run without asking (the settings' autoApprove). */
  autoApprove: string[];
}

export interface CatalogEntry {
  /** The function name the model sees and calls. */
  name: string;
  server: string;
  /** The MCP tool name on that server. */
  tool: string;
  autoApproved: boolean;
  /** What the server's annotations say the tool does. */
  hints: ToolHints;
  functionTool: FunctionTool;
}

export class ToolCatalog {
  private readonly byName = new Map<string, CatalogEntry>();

  constructor(servers: CatalogServer[]) {
    const pairs = servers
      .flatMap(({ server, tools, autoApprove }) =>
        tools.map((tool) => ({ server, tool, autoApproved: autoApprove.includes(tool.name) })),
      )
      // Sorted, so that the rare numbered fallback below does not depend on the order servers connected in.
      .sort((a, b) => compare(a.server, b.server) || compare(a.tool.name, b.tool.name));
    const baseNames = pairs.map(({ server, tool }) => baseFunctionName(server, tool.name));
    const counts = new Map<string, number>();
    for (const name of baseNames) counts.set(name, (counts.get(name) ?? 0) + 1);

    pairs.forEach(({ server, tool, autoApproved }, index) => {
      const base = baseNames[index] ?? '';
      let name = (counts.get(base) ?? 0) > 1 ? hashedName(base, server, tool.name) : base;
      for (let extra = 2; this.byName.has(name); extra += 1)
        name = `${name.slice(0, maxFunctionNameLength - 4)}_${extra}`;
      this.byName.set(name, {
        name,
        server,
        tool: tool.name,
        autoApproved,
        hints: hintsOf(tool),
        functionTool: toFunctionTool(name, tool),
      });
    });
  }

  get functionTools(): FunctionTool[] {
    return [...this.byName.values()].map((entry) => entry.functionTool);
  }

  entries(): CatalogEntry[] {
    return [...this.byName.values()];
  }

  /** The server and MCP tool behind a function name the model called; undefined for a name we never offered. */
  resolve(name: string): CatalogEntry | undefined {
    return this.byName.get(name);
  }

  /** Whether the user must approve this call first; anything unknown needs approval. */
  needsApproval(name: string): boolean {
    return !this.byName.get(name)?.autoApproved;
  }
}

/** `server__tool` with every other character replaced by `_`, and a hash suffix when too long. */
export function baseFunctionName(server: string, tool: string): string {
  const name = `${sanitise(server)}${separator}${sanitise(tool)}`;
  return name.length <= maxFunctionNameLength ? name : hashedName(name, server, tool);
}

function hashedName(name: string, server: string, tool: string): string {
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, hashLength);
  return `${name.slice(0, maxFunctionNameLength - hashLength - 1)}_${hash}`;
}

function sanitise(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_');
}

function toFunctionTool(name: string, tool: Tool): FunctionTool {
  // Some models reject an object schema without `properties`; MCP allows leaving it out.
  const parameters: Record<string, unknown> = { ...tool.inputSchema, type: 'object' };
  parameters.properties ??= {};
  const description = tool.description ?? tool.title ?? tool.annotations?.title;
  return { type: 'function', function: { name, ...(description ? { description } : {}), parameters } };
}

function hintsOf(tool: Tool): ToolHints {
  const annotations = tool.annotations ?? {};
  const hints: ToolHints = {};
  if (typeof annotations.readOnlyHint === 'boolean') hints.readOnly = annotations.readOnlyHint;
  if (typeof annotations.destructiveHint === 'boolean') hints.destructive = annotations.destructiveHint;
  if (typeof annotations.openWorldHint === 'boolean') hints.openWorld = annotations.openWorldHint;
  return hints;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
