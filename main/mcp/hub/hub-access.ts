// What one client of the hub may use, from a gateway key's `allowed_mcp` list: `*` is every enabled server, a
// server's name is all of that server (tools, resources, prompts), and `server__tool` is that one tool. A tool is
// matched by its MCP name on the server and by the name the hub shows for it, so either spelling works.
// Resources and prompts come only with the whole server: a list of tools grants tools, nothing more.

export const everyServer = '*';

export class HubAccess {
  private readonly patterns: ReadonlySet<string>;

  constructor(patterns: readonly string[]) {
    this.patterns = new Set(patterns);
  }

  /** The access of a client that needs no key: `switchyard mcp serve`, run by the user. */
  static everything(): HubAccess {
    return new HubAccess([everyServer]);
  }

  allowsServer(server: string): boolean {
    return this.patterns.has(everyServer) || this.patterns.has(server);
  }

  allowsTool(server: string, tool: string, shownName: string): boolean {
    return this.allowsServer(server) || this.patterns.has(`${server}__${tool}`) || this.patterns.has(shownName);
  }
}
