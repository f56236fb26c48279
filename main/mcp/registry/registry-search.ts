// A search of the registry as the CLI and the Discover view show it: each server with how it runs, whether it needs
// secrets, and — for one installed from this registry name — its installed version and whether an update exists.

import type { RegistrySearchPage, RegistrySearchResult } from '../../../shared/mcp/registry-types.js';
import { serverNeedsSecrets, serverRunsWith } from './install-plan.js';
import type { RegistryClient, RegistrySearch } from './registry-client.js';
import { installedServers, isNewerVersion, type InstallTarget } from './registry-install.js';
import type { RegistryServer } from './server-json.js';

export async function searchRegistry(
  client: RegistryClient,
  target: Pick<InstallTarget, 'readSettings'>,
  query: RegistrySearch,
): Promise<RegistrySearchPage> {
  const page = await client.search(query);
  const installed = installedServers(await target.readSettings());
  return {
    registry: client.baseUrl,
    servers: page.servers.map((found) => searchResult(found, installed)),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    skipped: page.skipped,
  };
}

function searchResult(found: RegistryServer, installed: ReturnType<typeof installedServers>): RegistrySearchResult {
  const { server } = found;
  const mine = installed.find((entry) => entry.source.name === server.name);
  return {
    name: server.name,
    description: server.description ?? '',
    version: server.version,
    runs: serverRunsWith(server),
    needsSecrets: serverNeedsSecrets(server),
    ...(mine
      ? {
          installed: {
            entryName: mine.entryName,
            version: mine.source.version,
            updateAvailable: isNewerVersion(server.version, mine.source.version),
          },
        }
      : {}),
  };
}
