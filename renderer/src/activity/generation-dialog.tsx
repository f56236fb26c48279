// Everything the usage log knows about one request.

import { useCallback } from 'react';
import { formatMoney, type GenerationInfo } from '../../../shared/api/index.js';
import { useBridge } from '../bridge/bridge-context.js';
import { CloseAction, Dialog } from '../ui/dialog.js';
import { count, when } from '../ui/format.js';
import { Loaded } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

export function GenerationDialog({ id, onClose }: { id: string; onClose(): void }) {
  const bridge = useBridge();
  const generation = useLoad(
    useCallback(async () => (await bridge.invoke('usage:generation', { id })).generation, [bridge, id]),
  );
  return (
    <Dialog title={`Request ${id}`} onClose={onClose} wide>
      <Loaded loaded={generation} what="the request">
        {(data) => <Details generation={data} />}
      </Loaded>
      <CloseAction label="Close" onClose={onClose} />
    </Dialog>
  );
}

function Details({ generation }: { generation: GenerationInfo }) {
  const rows: [string, string][] = [
    ['Time', when(generation.created_at)],
    ['Model', generation.model],
    ['Provider', generation.provider_name ?? '—'],
    ['App', generation.app ?? generation.origin ?? '—'],
    ['Status', `${generation.status}${generation.cancelled ? ' (cancelled by the caller)' : ''}`],
    ['Finish reason', generation.finish_reason ?? '—'],
    ['Streamed', generation.streamed ? 'yes' : 'no'],
    ['Prompt tokens', count(generation.tokens_prompt)],
    ['Completion tokens', count(generation.tokens_completion)],
    ['Cached tokens', count(generation.native_tokens_cached)],
    ['Reasoning tokens', count(generation.native_tokens_reasoning)],
    ['Cost', generation.unpriced ? 'unpriced: no price is known for this model' : formatMoney(generation.total_cost)],
    ['Latency', `${count(generation.latency)} ms`],
    [
      'Time to first token',
      generation.time_to_first_token === null ? '—' : `${count(generation.time_to_first_token)} ms`,
    ],
  ];
  if (generation.error) rows.push(['Error', generation.error]);
  // Hosted tools (the Responses API's web_search…) the provider could not run were left out of the request.
  if (generation.dropped_tools.length > 0) rows.push(['Tools left out', generation.dropped_tools.join(', ')]);
  return (
    <dl className="details">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
