// The ordered `<provider>/<model>` candidates of one request: `model`, then each of `models`, with every model group
// (an alias of several targets) expanded in the order its strategy gives, narrowed and ordered by OpenRouter's
// `provider` object, the targets the caller's key may not use left out, and the target that answered the same
// conversation before put first. The attempt loop then tries them in order, skipping cooling targets and falling
// back on failures as decision 005 says (upstream-attempts.ts). Decision 029.

import { ApiError, type AliasGroup, type ProviderPreferences } from '../../../shared/api/index.js';
import type { TokenPrices } from '../../providers/index.js';
import { conversationKey, type StickyTargets } from './sticky-targets.js';
import type { TargetStats } from './target-stats.js';

/** What planning reads: the groups, what this process learnt of each target, prices, the key's rules. */
export interface PlanSources {
  groupOf(name: string): AliasGroup | undefined;
  stats?: TargetStats;
  priceOf?(model: string): TokenPrices | null;
  /** Whether the caller's key may use `<provider>/<model>`; everything when absent. */
  allows?(model: string): boolean;
  sticky?: StickyTargets;
  /** In [0, 1); Math.random by default. */
  random?: () => number;
}

export interface TargetPlan {
  candidates: string[];
  /** When the request names a group: the conversation it belongs to, and the targets of its groups. */
  stickiness?: { key: string; targets: ReadonlySet<string> };
}

interface PlannedRequest {
  model: string;
  models?: string[];
  provider?: ProviderPreferences;
}

const providerOf = (model: string) => model.slice(0, model.indexOf('/'));

/** Throws ApiError(403) when a group keeps no target the key may use. */
export function planTargets(request: PlannedRequest, sources: PlanSources): TargetPlan {
  const candidates: string[] = [];
  let stickiness: TargetPlan['stickiness'];
  for (const name of [request.model, ...(request.models ?? [])]) {
    const group = name.includes('/') ? undefined : sources.groupOf(name);
    if (!group) {
      if (!candidates.includes(name)) candidates.push(name);
      continue;
    }
    let targets = orderedTargets(group, sources);
    if (request.provider) targets = withPreferences(targets, request.provider, sources);
    const allowed = sources.allows ? targets.filter((target) => sources.allows!(target)) : targets;
    if (allowed.length === 0 && targets.length > 0 && sources.allows) {
      throw new ApiError(403, `This API key may use none of the targets of the model group "${name}".`, {
        model: name,
      });
    }
    const key = sources.sticky && conversationKey(name, request);
    if (key !== undefined) {
      const remembered = sources.sticky!.targetOf(key);
      const at = remembered === undefined ? -1 : allowed.indexOf(remembered);
      if (at > 0) allowed.unshift(...allowed.splice(at, 1));
      stickiness ??= { key, targets: new Set(allowed) };
    }
    for (const target of allowed) if (!candidates.includes(target)) candidates.push(target);
  }
  if (candidates.length === 0) {
    throw new ApiError(404, `No target of "${request.model}" is left after the request's provider preferences.`);
  }
  if (request.provider?.allow_fallbacks === false) candidates.length = 1;
  return stickiness ? { candidates, stickiness } : { candidates };
}

/** The group's targets in the order its strategy gives. */
export function orderedTargets(group: AliasGroup, sources: PlanSources): string[] {
  const { targets, strategy } = group;
  const stats = sources.stats;
  switch (strategy) {
    case 'ordered':
      return [...targets];
    case 'weighted':
      return weightedOrder(targets, group.weights ?? targets.map(() => 1), sources.random ?? Math.random);
    case 'least-busy':
      // Ties keep the group's order, so that an idle group behaves as `ordered`.
      return sortedBy(targets, (target) => stats?.busy(target) ?? 0);
    case 'latency':
      return sortedBy(targets, (target) => stats?.latencyMs(target));
    case 'cost':
      return sortedBy(targets, (target) => priceOf(target, sources));
  }
}

/** Lowest first; targets without a figure last, in the group's order. */
function sortedBy(targets: readonly string[], measure: (target: string) => number | undefined): string[] {
  const measured = targets.map((target, index) => ({ target, index, value: measure(target) }));
  measured.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) {
      return a.value === b.value ? a.index - b.index : a.value === undefined ? 1 : -1;
    }
    return a.value - b.value || a.index - b.index;
  });
  return measured.map((entry) => entry.target);
}

/** A weighted draw without replacement: the first pick by weight, then the next among the rest, and so on. */
function weightedOrder(targets: readonly string[], weights: readonly number[], random: () => number): string[] {
  const left = targets.map((target, index) => ({ target, weight: weights[index]! }));
  const order: string[] = [];
  while (left.length > 0) {
    let point = random() * left.reduce((sum, entry) => sum + entry.weight, 0);
    let at = left.findIndex((entry) => (point -= entry.weight) < 0);
    if (at < 0) at = left.length - 1;
    order.push(left.splice(at, 1)[0]!.target);
  }
  return order;
}

/** What a typical request costs on `target`, in pico-dollars per token (input and output alike); undefined unpriced. */
function priceOf(target: string, sources: PlanSources): number | undefined {
  const prices = sources.priceOf?.(target);
  return prices ? prices.inputPico + prices.outputPico : undefined;
}

/** USD per million tokens → pico-dollars per token (model-price.ts's unit). */
const picoPerUsdPerMillion = 1e6;

/** OpenRouter's `provider` object over a group's targets, each known by its provider id. */
function withPreferences(targets: string[], preferences: ProviderPreferences, sources: PlanSources): string[] {
  const { only, ignore, order, sort, max_price: maxPrice } = preferences;
  let kept = targets.filter(
    (target) => (!only || only.includes(providerOf(target))) && !ignore?.includes(providerOf(target)),
  );
  if (maxPrice) {
    kept = kept.filter((target) => {
      const prices = sources.priceOf?.(target);
      if (!prices) return true;
      const overPrompt = maxPrice.prompt !== undefined && prices.inputPico > maxPrice.prompt * picoPerUsdPerMillion;
      const overCompletion =
        maxPrice.completion !== undefined && prices.outputPico > maxPrice.completion * picoPerUsdPerMillion;
      return !overPrompt && !overCompletion;
    });
  }
  if (sort === 'price') kept = sortedBy(kept, (target) => priceOf(target, sources));
  else if (sort === 'latency') kept = sortedBy(kept, (target) => sources.stats?.latencyMs(target));
  else if (sort === 'throughput') kept = sortedBy(kept, (target) => negated(sources.stats?.throughput(target)));
  if (order) {
    const rank = (target: string) => {
      const at = order.indexOf(providerOf(target));
      return at < 0 ? undefined : at;
    };
    kept = sortedBy(kept, rank);
  }
  return kept;
}

function negated(value: number | undefined): number | undefined {
  return value === undefined ? undefined : -value;
}

/**
 * The request as a group's targets are sent it: the `provider` object's routing fields were about our provider ids
 * and are spent; an OpenRouter target would read them as its own providers'. `require_parameters` stays.
 */
export function withoutGroupPreferences<Request extends PlannedRequest>(request: Request): Request {
  if (!request.provider) return request;
  const {
    order: _order,
    only: _only,
    ignore: _ignore,
    allow_fallbacks: _allowFallbacks,
    sort: _sort,
    max_price: _maxPrice,
    ...rest
  } = request.provider;
  if (Object.keys(rest).length > 0) return { ...request, provider: rest };
  const { provider: _provider, ...withoutProvider } = request;
  return withoutProvider as Request;
}
