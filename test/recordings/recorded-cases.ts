// Every recording in ../shared/recordings as the cases the replay serves: which protocol it speaks, whether it
// streamed, and the exact bytes the fake upstream sends. Payload bytes are never changed; framing is added only
// where the recording stored payloads without it (SOURCES.md, "Framing added by the harness").

import { basename } from 'node:path';
import { listRecordings, readCassette, readChunkLines, readJson, type Interaction } from './recordings-folder.js';

export type Protocol = 'openai' | 'anthropic' | 'gemini';

export interface RecordedCase {
  /** Unique, URL-safe: the model name the gateway forwards upstream, by which the fake upstream finds the case. */
  id: string;
  /** The recording, `<owner>__<repo>/<path>` plus `#<interaction>` for cassettes. */
  source: string;
  protocol: Protocol;
  /** Whether the provider answered a streamed request (the caller then asks with stream: true). */
  streamed: boolean;
  status: number;
  contentType: string;
  /** What the fake upstream writes, byte for byte. */
  body: string;
}

/** A recorded exchange that is not a chat generation the gateway could be asked for, with the reason. */
export interface SetAside {
  source: string;
  reason: string;
}

const eventStream = 'text/event-stream; charset=utf-8';

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** vercel/ai keeps fixtures per provider package; everything not Anthropic or Google is OpenAI-compatible. */
function vercelProtocol(path: string): Protocol {
  if (path.includes('/packages/anthropic/')) return 'anthropic';
  if (path.includes('/packages/google/')) return 'gemini';
  return 'openai';
}

/** Framing as each API sends its events (SOURCES.md): Anthropic names them, Gemini ends them with CRLF. */
function frame(protocol: Protocol, payloads: readonly string[]): string {
  switch (protocol) {
    case 'anthropic':
      return payloads
        .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`)
        .join('');
    case 'gemini':
      return payloads.map((line) => `data: ${line}\r\n\r\n`).join('');
    case 'openai':
      return payloads.map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n';
  }
}

function vercelCase(path: string): RecordedCase {
  const protocol = vercelProtocol(path);
  const base = { id: slug(basename(path)), source: path, protocol };
  if (path.endsWith('.chunks.txt')) {
    const body = frame(protocol, readChunkLines(path));
    return { ...base, streamed: true, status: 200, contentType: eventStream, body };
  }
  const json = readJson(path) as { error?: { code?: number } };
  // google-429-retry-info.json is the body of an HTTP 429, whose status it repeats in `error.code`.
  const status = json.error?.code ?? 200;
  return { ...base, streamed: false, status, contentType: 'application/json', body: JSON.stringify(json) };
}

function interactionProtocol(uri: string): Protocol | null {
  const host = new URL(uri).host;
  if (host === 'api.anthropic.com') return 'anthropic';
  if (host.endsWith('googleapis.com')) return /:(stream)?generateContent/i.test(uri) ? 'gemini' : null;
  return 'openai';
}

function interactionCase(source: string, id: string, protocol: Protocol, interaction: Interaction): RecordedCase {
  const streamed = interaction.contentType.includes('event-stream') || interaction.uri.includes(':streamGenerate');
  let { body, contentType } = interaction;
  if (streamed && !contentType.includes('event-stream')) {
    // Gemini without alt=sse answers a JSON array; the gateway asks with alt=sse, one response per `data:` line.
    body = frame(
      protocol,
      (JSON.parse(body) as unknown[]).map((element) => JSON.stringify(element)),
    );
    contentType = eventStream;
  }
  return { id, source, protocol, streamed, status: interaction.status, contentType, body };
}

/**
 * The one spliced case SOURCES.md describes (`anth-midstream-overloaded`): the first 6 events of
 * anthropic-text.chunks.txt, then the error event Anthropic's streaming documentation shows, as it arrives after
 * the 200 when the API is overloaded.
 */
function midStreamOverloaded(): RecordedCase {
  const source = 'vercel__ai/packages/anthropic/src/__fixtures__/anthropic-text.chunks.txt';
  const error = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  const body = frame('anthropic', [...readChunkLines(source).slice(0, 6), error]);
  return {
    id: 'anth-midstream-overloaded',
    source: `${source} (first 6 events) + Anthropic's documented overloaded_error event`,
    protocol: 'anthropic',
    streamed: true,
    status: 200,
    contentType: eventStream,
    body,
  };
}

export interface Catalogue {
  cases: RecordedCase[];
  setAside: SetAside[];
}

export function loadCatalogue(): Catalogue {
  const cases: RecordedCase[] = [midStreamOverloaded()];
  const setAside: SetAside[] = [];
  for (const path of listRecordings()) {
    if (!path.endsWith('.yaml')) {
      cases.push(vercelCase(path));
      continue;
    }
    const interactions = readCassette(path);
    for (const [position, interaction] of interactions.entries()) {
      const source = `${path}#${position + 1}`;
      const protocol = interactionProtocol(interaction.uri);
      if (!protocol) {
        setAside.push({
          source,
          reason: `${interaction.uri} is Google's OAuth token exchange for Vertex AI, not a generation; the gateway's Gemini adapter authenticates with an API key`,
        });
        continue;
      }
      const id = `${slug(basename(path, '.yaml'))}-${position + 1}`;
      cases.push(interactionCase(source, id, protocol, interaction));
    }
  }
  return { cases, setAside };
}
