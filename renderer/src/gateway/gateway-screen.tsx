// The gateway: whether it listens, its base URL and port, code to paste into an app, the response cache's setting,
// and agent tools to connect.

import { useCallback, useState } from 'react';
import { useBridge } from '../bridge/bridge-context.js';
import { CopyButton } from '../ui/copy-button.js';
import { CacheSettingPanel } from './cache-setting-panel.js';
import { ConnectPanel } from './connect-panel.js';
import { Field, Loaded, Screen, StatusDot } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

export function GatewayScreen() {
  const bridge = useBridge();
  const models = useLoad(useCallback(async () => (await bridge.invoke('models:list')).models, [bridge]));
  const [model, setModel] = useState('');
  const chosen = model || models.data?.[0]?.id || '';
  const info = useLoad(
    useCallback(() => bridge.invoke('gateway:info', chosen ? { model: chosen } : {}), [bridge, chosen]),
  );

  return (
    <Screen title="Gateway">
      <Loaded loaded={info} what="the gateway">
        {(gateway) => (
          <>
            <section className="panel gateway-status" aria-label="Status">
              <p className="gateway-state">
                <StatusDot
                  state={gateway.listening ? 'ok' : 'error'}
                  label={gateway.listening ? 'listening' : 'not listening'}
                />
                {gateway.listening ? 'Listening' : 'Not listening: the gateway could not start (see the log).'}
              </p>
              {gateway.baseUrl && gateway.openAIBaseUrl ? (
                <dl className="details">
                  <CopyableDetail
                    term="Base URL for OpenAI and OpenRouter SDKs and tools"
                    label="OpenAI-compatible base URL"
                    what="OpenAI-compatible base URL"
                    value={gateway.openAIBaseUrl}
                  />
                  <CopyableDetail term="Interface base URL" label="Base URL" what="base URL" value={gateway.baseUrl} />
                  <div>
                    <dt>Port</dt>
                    <dd aria-label="Port">{gateway.port}</dd>
                  </div>
                </dl>
              ) : null}
              <p className="muted">
                Point OpenAI-compatible clients at the /v1 base URL with an API key from the API keys screen: there a
                request without &quot;stream&quot; gets one JSON object, as with OpenAI. The /api/v1 base follows the
                Switchyard interface, where a request without &quot;stream&quot; streams. Models are named
                &quot;provider/model&quot;. Below, the key is read from SWITCHYARD_API_KEY.
              </p>
            </section>

            {gateway.snippets.length > 0 ? (
              <section className="section" aria-labelledby="snippets-title">
                <div className="section-header">
                  <h2 id="snippets-title">Snippets</h2>
                  {models.data && models.data.length > 0 ? (
                    <Field label="Model">
                      {(props) => (
                        <select {...props} value={chosen} onChange={(event) => setModel(event.target.value)}>
                          {models.data!.map((option) => (
                            <option key={option.id} value={option.id}>
                              {option.id}
                            </option>
                          ))}
                        </select>
                      )}
                    </Field>
                  ) : null}
                </div>
                {gateway.snippets.map((snippet) => (
                  <figure key={snippet.id} className="snippet" aria-label={`${snippet.label} snippet`}>
                    <figcaption>
                      <span>{snippet.label}</span>
                      <CopyButton text={snippet.code} what={`${snippet.label} snippet`} />
                    </figcaption>
                    <pre tabIndex={0}>
                      <code>{snippet.code}</code>
                    </pre>
                  </figure>
                ))}
              </section>
            ) : null}

            <CacheSettingPanel />

            {gateway.listening && models.data ? <ConnectPanel models={models.data} /> : null}
          </>
        )}
      </Loaded>
    </Screen>
  );
}

/** A term of a details list whose value has a copy button; `label` names the value, `what` the copy. */
function CopyableDetail({ term, label, what, value }: { term: string; label: string; what: string; value: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd className="with-copy">
        <code aria-label={label}>{value}</code>
        <CopyButton text={value} what={what} />
      </dd>
    </div>
  );
}
