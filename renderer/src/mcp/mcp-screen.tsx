// MCP servers: the list with live status dots, and the selected server's detail; add and edit in a form or as
// JSON, import another app's config.

import { useCallback, useRef, useState, type ChangeEvent } from 'react';
import type { McpImportReport, McpServerStatus } from '../../../shared/bridge/types.js';
import { reviewServerEntry, type EntryReview } from '../../../shared/mcp/review-entry.js';
import { findSecrets, type FoundSecret } from '../../../shared/mcp/secret-fields.js';
import { errorMessage, useBridge, useBridgeEvent } from '../bridge/bridge-context.js';
import { EmptyState, ErrorNotice, Loaded, Screen, StatusDot } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';
import { navigate, routeHash, useRoute } from '../shell/route.js';
import { BundleInstallDialog, useBundleDrop } from './bundle-install-dialog.js';
import { DiscoverView } from './discover-view.js';
import { InstallLinkDialog } from './install-link-dialog.js';
import { ServerDetail } from './server-detail.js';
import { ConfirmRunDialog } from './run-review.js';
import { ServerDialog } from './server-dialog.js';
import { dotOf, stateText } from './server-status.js';
import { SettingsEditorDialog } from './settings-editor-dialog.js';

type Editing = { type: 'add' } | { type: 'edit'; name: string } | { type: 'json' } | null;

/**
 * What each server of a Claude Desktop, Cursor or Cline config runs, and the secrets in it; none when the text is
 * not such a config.
 */
function reviewsOfConfig(text: string): { reviews: EntryReview[]; secrets: FoundSecret[] } {
  let config: unknown;
  try {
    config = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { reviews: [], secrets: [] };
  }
  const servers = (config as { mcpServers?: unknown } | null)?.mcpServers;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return { reviews: [], secrets: [] };
  const entries = Object.entries(servers as Record<string, unknown>);
  return {
    reviews: entries.map(([name, entry]) => reviewServerEntry(name, entry)),
    secrets: findSecrets(servers as Record<string, unknown>),
  };
}

function describeImport(report: McpImportReport): string {
  const parts = [];
  if (report.added.length > 0) parts.push(`added ${report.added.join(', ')}`);
  if (report.replaced.length > 0) parts.push(`replaced ${report.replaced.join(', ')}`);
  for (const skipped of report.skipped) parts.push(`skipped ${skipped.name} (${skipped.reason})`);
  const moved = report.movedSecrets ?? [];
  if (moved.length > 0) parts.push(`moved ${moved.map((secret) => secret.key).join(', ')} to the secret store`);
  return parts.length === 0 ? 'The file has no servers.' : `Imported: ${parts.join('; ')}.`;
}

export function McpScreen() {
  const bridge = useBridge();
  const servers = useLoad(useCallback(async () => (await bridge.invoke('mcp:list-servers')).servers, [bridge]));
  const settings = useLoad(useCallback(() => bridge.invoke('mcp:get-settings'), [bridge]));
  const [live, setLive] = useState<Map<string, McpServerStatus>>(new Map());
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  /** The last import's outcome, and its file, to import again replacing the servers it skipped as different. */
  const [importReport, setImportReport] = useState<{
    summary: string;
    conflicts: string[];
    file: { text: string; fileName: string; moveSecrets: boolean };
  } | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [importing, setImporting] = useState<{
    text: string;
    fileName: string;
    reviews: EntryReview[];
    secrets: FoundSecret[];
    moveSecrets: boolean;
  } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [discovering, setDiscovering] = useState(false);
  // `#/mcp/link/<link>`: an install link opened in the app or at /ui/mcp/install (shared/mcp/install-link.ts).
  const route = useRoute();
  const installLink = route.rest[0] === 'link' ? route.rest[1] : undefined;
  const closeInstallLink = () => navigate(routeHash('mcp'), { replace: true });
  const bundleInput = useRef<HTMLInputElement>(null);
  const [bundle, setBundle] = useState<File | null>(null);
  useBundleDrop(setBundle);

  useBridgeEvent('mcp:status', (status) => setLive((current) => new Map(current).set(status.name, status)));
  useBridgeEvent('mcp:servers-changed', () => {
    void servers.reload();
    void settings.reload();
  });

  const list = (servers.data ?? []).map((server) => live.get(server.name) ?? server);
  const current = list.find((server) => server.name === selected) ?? list[0];

  const refresh = () => {
    setLive(new Map());
    void servers.reload();
    void settings.reload();
  };

  const runImport = async (text: string, fileName: string, overwrite = false, moveSecrets = true) => {
    const report = await bridge.invoke('mcp:import', { text, fileName, overwrite, moveSecrets });
    setImportReport({
      summary: describeImport(report),
      conflicts: report.skipped.filter((skipped) => skipped.conflict).map((skipped) => skipped.name),
      file: { text, fileName, moveSecrets },
    });
    refresh();
  };

  // What the file's servers run is shown first; a file that does not parse goes to main, which says why.
  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setImportError(null);
    setImportReport(null);
    try {
      const text = await file.text();
      const { reviews, secrets } = reviewsOfConfig(text);
      if (reviews.length > 0) setImporting({ text, fileName: file.name, reviews, secrets, moveSecrets: true });
      else await runImport(text, file.name);
    } catch (failure) {
      setImportError(errorMessage(failure));
    }
  };

  const editable = (name: string) => settings.data?.servers.find((server) => server.name === name);
  const fileProblems = settings.data?.problems.filter((problem) => problem.server === undefined) ?? [];

  return (
    <Screen
      title="MCP servers"
      className="mcp"
      actions={
        <>
          <button type="button" aria-pressed={discovering} onClick={() => setDiscovering(!discovering)}>
            Discover
          </button>
          <button type="button" onClick={() => fileInput.current?.click()}>
            Import…
          </button>
          <input
            ref={fileInput}
            type="file"
            accept=".json,application/json"
            className="visually-hidden"
            tabIndex={-1}
            aria-label="Config file to import"
            onChange={(event) => void importFile(event)}
          />
          <button type="button" onClick={() => bundleInput.current?.click()}>
            Install bundle…
          </button>
          <input
            ref={bundleInput}
            type="file"
            accept=".mcpb"
            className="visually-hidden"
            tabIndex={-1}
            aria-label="MCP bundle to install"
            onChange={(event) => {
              setBundle(event.target.files?.[0] ?? null);
              event.target.value = '';
            }}
          />
          <button type="button" onClick={() => setEditing({ type: 'json' })}>
            Edit JSON
          </button>
          <button type="button" className="primary" onClick={() => setEditing({ type: 'add' })}>
            Add server
          </button>
        </>
      }
    >
      <ErrorNotice message={servers.error ?? importError} />
      {fileProblems.map((problem) => (
        <p key={problem.path + problem.message} className="notice notice-error" role="alert">
          {settings.data?.path}: {problem.message}. Fix it with Edit JSON; the servers keep running meanwhile.
        </p>
      ))}
      {importReport ? (
        <div className="notice with-copy" role="status">
          <span>{importReport.summary}</span>
          {importReport.conflicts.length > 0 ? (
            <button
              type="button"
              onClick={() =>
                void runImport(
                  importReport.file.text,
                  importReport.file.fileName,
                  true,
                  importReport.file.moveSecrets,
                ).catch((failure: unknown) => setImportError(errorMessage(failure)))
              }
            >
              Replace {importReport.conflicts.join(', ')} with the imported{' '}
              {importReport.conflicts.length === 1 ? 'entry' : 'entries'}
            </button>
          ) : null}
        </div>
      ) : null}
      {installLink ? (
        <InstallLinkDialog
          link={installLink}
          onClose={closeInstallLink}
          onInstalled={(name) => {
            closeInstallLink();
            setSelected(name);
            refresh();
          }}
        />
      ) : null}
      {discovering ? (
        <DiscoverView
          onInstalled={(name) => {
            setDiscovering(false);
            setSelected(name);
            refresh();
          }}
        />
      ) : null}
      <Loaded
        // Its error shows at the top, with the import's.
        loaded={{ data: servers.data, loading: servers.loading }}
        what="servers"
        empty={
          <EmptyState title="No MCP servers yet">
            <p>
              MCP servers give models tools: files, the web, databases. Add one, or import the servers of Claude
              Desktop, Cursor or Cline.
            </p>
            <button type="button" className="primary" onClick={() => setEditing({ type: 'add' })}>
              Add a server
            </button>
          </EmptyState>
        }
      >
        {() => (
          <div className="mcp-layout">
            <ul className="server-list" aria-label="Servers">
              {list.map((server) => (
                <li key={server.name}>
                  <button
                    type="button"
                    aria-current={server.name === current?.name || undefined}
                    onClick={() => setSelected(server.name)}
                  >
                    <StatusDot state={dotOf[server.state]} label={server.state} />
                    <span className="server-name">{server.name}</span>
                    <span className="muted server-summary">{stateText(server)}</span>
                  </button>
                </li>
              ))}
            </ul>
            {current ? (
              <ServerDetail
                server={current}
                editable={editable(current.name)}
                onEdit={() => setEditing({ type: 'edit', name: current.name })}
                onChanged={refresh}
              />
            ) : null}
          </div>
        )}
      </Loaded>

      {editing?.type === 'add' || editing?.type === 'edit' ? (
        <ServerDialog
          server={editing.type === 'edit' ? editable(editing.name) : undefined}
          secrets={settings.data?.secrets ?? []}
          onClose={() => setEditing(null)}
          onSaved={(name) => {
            setEditing(null);
            setSelected(name);
            refresh();
          }}
        />
      ) : null}
      {editing?.type === 'json' ? (
        <SettingsEditorDialog
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      ) : null}
      {bundle ? (
        <BundleInstallDialog
          file={bundle}
          onClose={() => setBundle(null)}
          onInstalled={(name) => {
            setBundle(null);
            setSelected(name);
            refresh();
          }}
        />
      ) : null}
      {importing ? (
        <ConfirmRunDialog
          title={`Import ${importing.reviews.length === 1 ? 'this server' : `${importing.reviews.length} servers`} from ${importing.fileName}?`}
          reviews={importing.reviews}
          confirmLabel="Import and start"
          onConfirm={async () => {
            await runImport(importing.text, importing.fileName, false, importing.moveSecrets);
            setImporting(null);
          }}
          onClose={() => setImporting(null)}
        >
          {importing.secrets.length > 0 ? (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={importing.moveSecrets}
                onChange={(event) => setImporting({ ...importing, moveSecrets: event.target.checked })}
              />
              Move {importing.secrets.length === 1 ? 'its secret' : `the ${importing.secrets.length} secrets`} (
              {importing.secrets.map((secret) => `${secret.server}: ${secret.key}`).join(', ')}) into the secret store;
              the settings file gets references
            </label>
          ) : null}
        </ConfirmRunDialog>
      ) : null}
    </Screen>
  );
}
