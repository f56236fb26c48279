// One provider: where it is, which key it has (only ever its last four characters), its cooldowns and each of its
// models' health, a connection test, its models.

import { useCallback, useEffect, useState } from 'react';
import {
  defaultProviderCooldown,
  describeTargetHealth,
  effectiveCooldown,
  type ModelPriceInfo,
  type ProviderInfo,
  type ProviderTestResult,
} from '../../../shared/api/index.js';
import type { ProviderModel } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { ConfirmDialog } from '../ui/dialog.js';
import { ErrorNotice, Loading } from '../ui/parts.js';
import { perMillion } from '../ui/format.js';
import { Table } from '../ui/table.js';
import { useLoad } from '../ui/use-load.js';
import { kindLabels } from './provider-dialog.js';

interface ProviderCardProps {
  provider: ProviderInfo;
  pricesVersion: number;
  onEdit(): void;
  onRemoved(): void;
  onPrice(model: string, current: ModelPriceInfo | null): void;
}

const sourceLabels = { configured: '', environment: 'from the environment', local: 'found running' } as const;

function describeKey(provider: ProviderInfo): string {
  if (!provider.has_api_key) return 'No API key';
  if (provider.source === 'environment') return 'Key from the environment';
  return provider.api_key_tail ? `Key ••••${provider.api_key_tail}` : 'Key stored';
}

/** The provider's cooldown settings in words. */
function describeCooldown(provider: ProviderInfo): string {
  const cooldown = effectiveCooldown(provider.cooldown);
  if (cooldown === null) return 'Cooldowns off: failing models are always tried';
  const { windowSeconds } = defaultProviderCooldown;
  return `A model failing ${cooldown.after} times in ${windowSeconds} s cools down for ${cooldown.seconds} s`;
}

/** Each model that is cooling down or waiting for its trial; the others are healthy. */
function TargetHealthList({ provider }: { provider: ProviderInfo }) {
  const targets = provider.targets ?? [];
  return (
    <div role="group" aria-label="Model health">
      <p className="card-line muted">{describeCooldown(provider)}</p>
      {targets.length === 0 ? (
        <p className="target-health">All models healthy</p>
      ) : (
        <ul className="target-health">
          {targets.map((target) => (
            <li key={target.model} className={`target-${target.state}`}>
              <span className="mono">{target.model}</span>: {describeTargetHealth(target)}
              {target.state === 'trial' ? ' (the next request tests it)' : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A message ending as a sentence does, so that the next one can follow it. */
function asSentence(message: string): string {
  return /[.!?]$/.test(message.trim()) ? message.trim() : `${message.trim()}.`;
}

export function ProviderCard({ provider, pricesVersion, onEdit, onRemoved, onPrice }: ProviderCardProps) {
  const bridge = useBridge();
  const configured = (provider.source ?? 'configured') === 'configured';
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<ProviderTestResult | null>(null);
  const [showModels, setShowModels] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [testError, setTestError] = useState<string | null>(null);
  // Each test lists the models again: the open list then shows what this test found, never an older error.
  const [testsRun, setTestsRun] = useState(0);

  const runTest = async () => {
    setTesting(true);
    setTest(null);
    setTestError(null);
    try {
      setTest(await bridge.invoke('providers:test', { id: provider.id }));
    } catch (failure) {
      setTestError(errorMessage(failure));
    } finally {
      setTesting(false);
      setTestsRun((count) => count + 1);
    }
  };

  // Whether its models can be listed at all, asked when the card shows and after each test: a provider whose list
  // fails has none in the chat's model picker, and the card says so and why instead of leaving them to vanish.
  const listing = useLoad(
    useCallback(
      () => bridge.invoke('providers:models', { id: provider.id }).then(() => testsRun),
      [bridge, provider.id, testsRun],
    ),
  );

  const remove = async () => {
    await bridge.invoke('providers:remove', { id: provider.id });
    setConfirming(false);
    onRemoved();
  };

  return (
    <li className="card" aria-label={`Provider ${provider.id}`}>
      <div className="card-main">
        <div className="card-title">
          <h2>{provider.id}</h2>
          <span className="badge">{kindLabels[provider.kind]}</span>
          {configured ? null : (
            <span className="badge badge-muted">{sourceLabels[provider.source ?? 'configured']}</span>
          )}
        </div>
        <p className="mono card-line">{provider.base_url}</p>
        <p className="card-line muted" aria-label="API key">
          {describeKey(provider)}
        </p>
        <TargetHealthList provider={provider} />
        <p className={`test-result ${test ? (test.ok ? 'ok' : 'failed') : ''}`} role="status">
          {testing ? 'Testing…' : test ? test.message : ''}
        </p>
        <ErrorNotice message={testError} />
      </div>
      <div className="card-actions">
        <button type="button" disabled={testing} onClick={() => void runTest()}>
          Test connection
        </button>
        <button type="button" aria-expanded={showModels} onClick={() => setShowModels((shown) => !shown)}>
          {showModels ? 'Hide models' : 'Models'}
        </button>
        {configured ? (
          <>
            <button type="button" onClick={onEdit}>
              Edit
            </button>
            <button type="button" className="danger" onClick={() => setConfirming(true)}>
              Remove
            </button>
          </>
        ) : null}
      </div>
      {listing.error ? (
        <p className="notice card-models-failed">
          <strong>Its models could not be listed,</strong> so the chat&apos;s model picker leaves them out:{' '}
          {asSentence(listing.error)} Check its API key, base URL and network, then Test connection.
        </p>
      ) : null}
      {showModels ? (
        <ModelList key={testsRun} providerId={provider.id} pricesVersion={pricesVersion} onPrice={onPrice} />
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={`Remove provider ${provider.id}?`}
          message={`Its stored key is deleted too, and requests for ${provider.id}/… fail until it is added again.`}
          confirmLabel="Remove provider"
          onConfirm={remove}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </li>
  );
}

function ModelList({
  providerId,
  pricesVersion,
  onPrice,
}: {
  providerId: string;
  pricesVersion: number;
  onPrice(model: string, current: ModelPriceInfo | null): void;
}) {
  const bridge = useBridge();
  const [models, setModels] = useState<ProviderModel[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    bridge.invoke('providers:models', { id: providerId }).then(
      (answer) => current && (setModels(answer.models), setError(null)),
      (failure: unknown) => current && setError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [bridge, providerId, pricesVersion]);

  if (error) return <ErrorNotice message={`The models could not be listed: ${error}`} />;
  if (!models) return <Loading what="models" />;
  if (models.length === 0) return <p className="muted">This provider lists no models.</p>;
  return (
    <Table
      label={`Models of ${providerId}`}
      className="card-models"
      columns={['Model', 'Context', 'Input / M', 'Output / M', 'Price from']}
      actions="Actions"
    >
      {models.map((model) => (
        <tr key={model.id}>
          <td className="mono">{model.id}</td>
          <td>{model.contextLength ? model.contextLength.toLocaleString() : '—'}</td>
          <td>{model.price ? perMillion(model.price.input) : '—'}</td>
          <td>{model.price ? perMillion(model.price.output) : '—'}</td>
          <td>{model.price ? (model.price.source === 'override' ? 'your price' : 'bundled') : 'unpriced'}</td>
          <td>
            <button
              type="button"
              aria-label={`Set price of ${model.id}`}
              onClick={() => onPrice(model.id, model.price)}
            >
              Set price
            </button>
          </td>
        </tr>
      ))}
    </Table>
  );
}
