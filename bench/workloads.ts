// What the fake upstream does for each model name, and the request bodies the load generator sends. Shared by
// the upstream process, the load generator and the report so that every figure names the same workload.

import type { LoadJob } from './load-generator.js';

export interface UpstreamProfile {
  /** Time from the request to the first content chunk (or to the whole answer when not streaming). */
  firstTokenMs: number;
  /** Content chunks in a stream, the first one included. */
  contentChunks: number;
  /** Gap between two content chunks. */
  chunkIntervalMs: number;
}

/**
 * `latency`: a fast model by LLM standards (first token after 50 ms, then 200 tokens a second; about 150 ms in
 * all), used for the added-latency figures at 50 connections: the gateway works at a few hundred requests a
 * second, so the difference to calling the upstream directly is its own work rather than queueing behind a
 * saturated core. `throughput`: a zero-latency upstream (ten chunks sent at once), so that the throughput figures
 * are the gateway's and the bare proxy's own ceilings rather than the upstream's pace times the connections.
 */
export const profiles = {
  latency: { firstTokenMs: 50, contentChunks: 20, chunkIntervalMs: 5 },
  throughput: { firstTokenMs: 0, contentChunks: 10, chunkIntervalMs: 0 },
} satisfies Record<string, UpstreamProfile>;

export type ProfileName = keyof typeof profiles;

export function isProfileName(name: string): name is ProfileName {
  return Object.hasOwn(profiles, name);
}

/** Total upstream time of one answer under a profile. */
export function profileDurationMs(profile: UpstreamProfile): number {
  return profile.firstTokenMs + (profile.contentChunks - 1) * profile.chunkIntervalMs;
}

/**
 * How long the load generator takes to open the connections of a latency measurement: one `latency` answer, so
 * that they arrive as independent clients would, spread over the upstream's time. Opened all at once, they stay
 * one burst round after round (every whole answer takes the same time, so nothing spreads them), and the added
 * latency then measures the queue inside that burst, which depends on whatever clumps it further, not on what one
 * request costs (bench/results/gateway-cost.md).
 */
export const latencyStartSpreadMs = profileDurationMs(profiles.latency);

/** A chat request as a client sends it: a short system prompt and one user message. */
export function chatBody(model: string, stream: boolean): string {
  return JSON.stringify({
    model,
    stream,
    messages: [
      { role: 'system', content: 'You are a terse assistant used by a benchmark.' },
      { role: 'user', content: 'Say hello in ten short words, one per chunk, please.' },
    ],
    temperature: 0.2,
  });
}

/** A load job of chat requests to a Switchyard gateway on this machine, with one of its API keys. */
export function switchyardChatJob(
  port: number,
  key: string,
  model: string,
  stream: boolean,
  connections: number,
  durationMs: number,
): LoadJob {
  return {
    host: '127.0.0.1',
    port,
    path: '/api/v1/chat/completions',
    headers: { authorization: `Bearer ${key}` },
    body: chatBody(`fake/${model}`, stream),
    connections,
    durationMs,
  };
}
