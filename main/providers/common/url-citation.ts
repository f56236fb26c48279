// Citations of web sources as OpenAI's chat completions carry them: `message.annotations` (and `delta.annotations`
// in a stream) of type `url_citation`, with the span of the answer's text (JavaScript string indices) they support.
// Anthropic's web-search citations and Gemini's grounding become these.

export interface UrlCitation {
  type: 'url_citation';
  url_citation: { url: string; title?: string; content?: string; start_index: number; end_index: number };
}

export function urlCitation(
  source: { url: string; title?: string | null; quote?: string | null },
  start: number,
  end: number,
): UrlCitation {
  const citation: UrlCitation['url_citation'] = { url: source.url, start_index: start, end_index: end };
  if (source.title) citation.title = source.title;
  if (source.quote) citation.content = source.quote;
  return { type: 'url_citation', url_citation: citation };
}
