// Discover: servers of the MCP Registry (the official one, or the registry in the app's settings) to install in one
// step. Each result says how it runs, whether it needs secrets, and whether it is installed here — with "update
// available" when the registry has a newer version. Install opens the form of its declared values.

import { useCallback, useState, type FormEvent } from 'react';
import type { RegistrySearchPage, RegistrySearchResult, RunsWith } from '../../../shared/mcp/registry-types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { ErrorNotice, TextField } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';
import { RegistryInstallDialog } from './registry-install-dialog.js';
import '../styles/discover.css';

const runsText: Record<RunsWith, string> = {
  npx: 'npx (Node.js)',
  uvx: 'uvx (Python)',
  docker: 'Docker',
  remote: 'remote',
  mcpb: 'MCP bundle',
  dnx: 'dnx (.NET)',
  other: 'other',
};

export function DiscoverView({ onInstalled }: { onInstalled(entryName: string): void }) {
  const bridge = useBridge();
  const [text, setText] = useState('');
  const [page, setPage] = useState<RegistrySearchPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [installing, setInstalling] = useState<RegistrySearchResult | null>(null);

  const search = async (cursor?: string) => {
    setBusy(true);
    setError(null);
    try {
      const next = await bridge.invoke('mcp:registry-search', { search: text, ...(cursor ? { cursor } : {}) });
      setPage((current) => (cursor && current ? { ...next, servers: [...current.servers, ...next.servers] } : next));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void search();
  };

  return (
    <section className="discover" aria-label="Discover servers">
      <form className="discover-search" role="search" onSubmit={submit}>
        <TextField
          label="Search the MCP Registry"
          type="search"
          value={text}
          onChange={setText}
          placeholder="e.g. filesystem"
        />
        <button type="submit" className="primary" disabled={busy}>
          Search
        </button>
      </form>
      <RegistrySettingForm onSaved={() => setPage(null)} />
      <ErrorNotice message={error} />
      {page ? (
        <>
          <p className="muted" role="status">
            {page.servers.length === 0
              ? `No servers matching "${text}" in ${page.registry}.`
              : `${page.servers.length} server${page.servers.length === 1 ? '' : 's'} from ${page.registry}.`}
          </p>
          {page.skipped.map((skipped) => (
            <p key={skipped} className="notice">
              Left out: {skipped}
            </p>
          ))}
          <ul className="discover-results" aria-label="Registry servers">
            {page.servers.map((result) => (
              <ResultItem key={result.name} result={result} onInstall={() => setInstalling(result)} />
            ))}
          </ul>
          {page.nextCursor ? (
            <button type="button" disabled={busy} onClick={() => void search(page.nextCursor)}>
              More servers
            </button>
          ) : null}
        </>
      ) : null}
      {installing ? (
        <RegistryInstallDialog
          name={installing.name}
          onClose={() => setInstalling(null)}
          onInstalled={(entryName) => {
            setInstalling(null);
            onInstalled(entryName);
          }}
        />
      ) : null}
    </section>
  );
}

/** Which registry Discover asks: the official one, or a company's own; stored with the app's data. */
function RegistrySettingForm({ onSaved }: { onSaved(): void }) {
  const bridge = useBridge();
  const setting = useLoad(useCallback(() => bridge.invoke('mcp:registry-url'), [bridge]));
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await bridge.invoke('mcp:set-registry-url', { url: url ?? '' });
      setUrl(null);
      await setting.reload();
      onSaved();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <details className="discover-registry">
      <summary>Registry: {setting.data?.url ?? '…'}</summary>
      <form onSubmit={(event) => void save(event)} className="discover-search">
        <TextField
          label="Registry URL"
          type="url"
          value={url ?? setting.data?.url ?? ''}
          onChange={setUrl}
          error={error}
          hint={`Empty: the official registry, ${setting.data?.defaultUrl ?? ''}.`}
        />
        <button type="submit">Save</button>
      </form>
    </details>
  );
}

function ResultItem({ result, onInstall }: { result: RegistrySearchResult; onInstall(): void }) {
  const { installed } = result;
  const action = !installed ? 'Install' : installed.updateAvailable ? 'Update' : null;
  return (
    <li className="discover-result">
      <div className="discover-result-head">
        <strong>{result.name}</strong>
        <span className="muted">{result.version}</span>
      </div>
      <p>{result.description}</p>
      <p className="discover-badges">
        <span className="badge badge-muted">
          Runs with {result.runs.map((runs) => runsText[runs]).join(', ') || '—'}
        </span>
        {result.needsSecrets ? <span className="badge">Needs secrets</span> : null}
        {installed ? (
          <span className={installed.updateAvailable ? 'badge state-update' : 'badge state-active'}>
            {installed.updateAvailable
              ? `Update available: ${installed.version} → ${result.version}`
              : `Installed as ${installed.entryName}`}
          </span>
        ) : null}
      </p>
      {action ? (
        <button
          type="button"
          className={action === 'Install' ? undefined : 'primary'}
          aria-label={`${action} ${result.name}`}
          onClick={onInstall}
        >
          {action}
        </button>
      ) : null}
    </li>
  );
}
