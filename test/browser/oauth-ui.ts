// The UI of the OAuth browser tests: the real `switchyard serve` whose settings name one remote server, `remote`,
// at the OAuth fixture's MCP endpoint.

import fs from 'node:fs';
import path from 'node:path';
import type { OAuthMcpServer } from '../mcp-oauth/oauth-mcp-server.js';
import { startUi, type UiHarness } from './ui-harness.js';

export function startUiWithRemote(remote: OAuthMcpServer): Promise<UiHarness> {
  return startUi({
    prepare: (dataDir) =>
      fs.writeFileSync(
        path.join(dataDir, 'mcp_settings.json'),
        JSON.stringify({ mcpServers: { remote: { type: 'streamableHttp', url: remote.url } } }),
      ),
  });
}
