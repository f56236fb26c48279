// Which names a request's model may be priced under. Prices follow the upstream model, not the provider id the
// user picked: `openai/gpt-4o`, `myazure/gpt-4o` and OpenRouter's `openrouter/openai/gpt-4o` are all gpt-4o,
// and dated snapshots (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`) are priced as their model.

// Snapshot and version suffixes, stripped repeatedly from the end of a name.
const suffixes = [
  /-\d{4}-\d{2}-\d{2}$/, // OpenAI: gpt-4o-2024-08-06
  /[-@]\d{8}$/, // Anthropic: claude-sonnet-4-20250514, Vertex: claude-sonnet-4@20250514
  /-latest$/, // claude-3-5-haiku-latest
  /-preview(-\d{2}-\d{2})?$/, // gemini-2.5-flash-preview-05-20
];

function withoutSuffixes(name: string): string {
  let current = name;
  for (;;) {
    const next = suffixes.reduce((text, suffix) => text.replace(suffix, ''), current);
    if (next === current || next === '') return current;
    current = next;
  }
}

export interface PriceTarget {
  /** The model as requested, `<provider>/<model>`. */
  model: string;
  /** The provider that served the request, if one did. */
  provider: string | null;
  /** The model name sent upstream; derived from `model` when null. */
  upstreamModel: string | null;
}

/**
 * Names to look a price up under, most specific first, lowercased: the requested id (so that an override for
 * `myazure/gpt-4o` wins over one for `gpt-4o`), the upstream name, its last path segment (OpenRouter's
 * `openai/gpt-4o`, Gemini's `models/gemini-2.5-pro`), and that without snapshot suffixes.
 */
export function priceLookupNames(target: PriceTarget): string[] {
  const requested = target.model.toLowerCase();
  const slash = requested.indexOf('/');
  const upstream = (target.upstreamModel ?? (slash === -1 ? requested : requested.slice(slash + 1))).toLowerCase();
  const lastSegment = upstream.slice(upstream.lastIndexOf('/') + 1);
  return [...new Set([requested, upstream, lastSegment, withoutSuffixes(lastSegment)])].filter(Boolean);
}
