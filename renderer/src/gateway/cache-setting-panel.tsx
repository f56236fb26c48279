// The response cache's setting (decision 031): how long the gateway answers an identical chat request from the
// cache (0: off) and whether keys share answers. Stored with the app's data and applied from the next request; a
// `switchyard serve` started with --cache-ttl or --cache-scope keeps its flag, and the panel says so.

import { useCallback, useState, type FormEvent } from 'react';
import {
  cacheTtlProblem,
  responseCacheScopes,
  type ResponseCacheScope,
  type ResponseCacheSettingView,
} from '../../../shared/api/index.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { ChoiceField, ErrorNotice, Loaded, TextField } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

const scopeLabels: Record<ResponseCacheScope, string> = {
  key: 'Per key',
  all: 'Shared between keys',
};

/** What the TTL field holds, as seconds; else what is wrong with it. */
export function parseCacheTtl(text: string): { seconds: number } | { problem: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { problem: 'Enter the TTL in whole seconds: 0 turns the cache off.' };
  const seconds = Number(trimmed);
  const problem = cacheTtlProblem(seconds);
  return problem ? { problem } : { seconds };
}

export function CacheSettingPanel() {
  const bridge = useBridge();
  const setting = useLoad(useCallback(() => bridge.invoke('gateway:cache-setting'), [bridge]));
  return (
    <section className="panel cache-setting" aria-labelledby="cache-setting-title">
      <h2 id="cache-setting-title">Response cache</h2>
      <Loaded loaded={setting} what="the response cache setting">
        {(view) => <CacheSettingForm view={view} />}
      </Loaded>
    </section>
  );
}

function CacheSettingForm({ view }: { view: ResponseCacheSettingView }) {
  const bridge = useBridge();
  const [shown, setShown] = useState(view);
  const [ttl, setTtl] = useState(String(view.stored.ttlSeconds));
  const [scope, setScope] = useState<ResponseCacheScope>(view.stored.scope);
  const [ttlError, setTtlError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(null);
    setFailure(null);
    const parsed = parseCacheTtl(ttl);
    if ('problem' in parsed) {
      setTtlError(parsed.problem);
      return;
    }
    setSaving(true);
    try {
      const next = await bridge.invoke('gateway:set-cache-setting', { ttlSeconds: parsed.seconds, scope });
      setShown(next);
      setSaved(
        parsed.seconds === 0 ? 'Saved: the cache is off from the next request.' : 'Saved: the next request uses it.',
      );
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const { effective, overridden } = shown;
  return (
    <>
      <p className="muted">
        Answers an identical chat request (same model, messages, tools and parameters, with temperature 0) from the
        cache instead of the provider, at no cost to credits; the response says so in X-Switchyard-Cache. Turned off,
        nothing is served from the cache or stored in it; answers already stored stay until their time is over, so
        turning it back on serves those still within it.
      </p>
      <form className="form cache-setting-form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="form-row">
          <TextField
            label="Keep answers for (seconds)"
            inputMode="numeric"
            value={ttl}
            error={ttlError}
            hint="0 turns the cache off."
            onChange={(value) => {
              setTtl(value);
              setSaved(null);
              const parsed = parseCacheTtl(value);
              setTtlError(value.trim() !== '' && 'problem' in parsed ? parsed.problem : null);
            }}
          />
          <ChoiceField
            label="Scope"
            options={responseCacheScopes}
            labels={scopeLabels}
            value={scope}
            onChange={(value) => {
              setScope(value);
              setSaved(null);
            }}
          />
        </div>
        {scope === 'all' ? (
          <p className="notice" role="note">
            Shared between keys: an answer made for one key is served to every other key that asks the same. Use it only
            where every key may see every other key&apos;s answers.
          </p>
        ) : null}
        <div className="form-test">
          <button type="submit" className="primary" disabled={saving}>
            Save
          </button>
          <p className="test-result" role="status">
            {saved ?? ''}
          </p>
        </div>
      </form>
      <ErrorNotice message={failure} />
      <p className="cache-setting-effective" aria-label="Running with">
        {effective.ttlSeconds === 0
          ? 'Running with: off.'
          : `Running with: answers kept ${effective.ttlSeconds} s, ${scopeLabels[effective.scope].toLowerCase()}.`}
      </p>
      {overridden.ttlSeconds || overridden.scope ? (
        <p className="notice" role="note">
          This server was started with {overriddenFlags(shown)}: the flag wins over this setting until the server is
          started without it.
        </p>
      ) : null}
    </>
  );
}

function overriddenFlags({ effective, overridden }: ResponseCacheSettingView): string {
  return [
    ...(overridden.ttlSeconds ? [`--cache-ttl ${effective.ttlSeconds}`] : []),
    ...(overridden.scope ? [`--cache-scope ${effective.scope}`] : []),
  ].join(' and ');
}
