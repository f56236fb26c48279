// What the bench sends load to: the upstream called directly, the bare Node proxy, `switchyard serve` (one
// process and `--workers N`) and Portkey, each as a function from a workload to the load generator's job.

import type { LoadJob } from './load-generator.js';
import { chatBody, switchyardChatJob } from './workloads.js';

export type TargetName = 'direct' | 'bare' | 'switchyard' | 'workers' | 'portkey';

export interface Target {
  name: TargetName;
  job(model: string, stream: boolean, connections: number, durationMs: number): LoadJob;
}

export interface TargetAddresses {
  upstream: { port: number; url: string; providerKey: string };
  bare: { port: number };
  switchyard: { port: number; apiKey: string };
  workers: { port: number; apiKey: string };
  portkey: { port: number };
}

/** A chat-completions job against `port` with `headers`. */
const chatJob =
  (port: number, headers: Record<string, string>): Target['job'] =>
  (model, stream, connections, durationMs) => ({
    host: '127.0.0.1',
    port,
    path: '/v1/chat/completions',
    headers,
    body: chatBody(model, stream),
    connections,
    durationMs,
  });

const switchyardJob =
  ({ port, apiKey }: { port: number; apiKey: string }): Target['job'] =>
  (model, stream, connections, durationMs) =>
    switchyardChatJob(port, apiKey, model, stream, connections, durationMs);

export function benchTargets(addresses: TargetAddresses): Record<TargetName, Target> {
  const { upstream } = addresses;
  return {
    direct: { name: 'direct', job: chatJob(upstream.port, { authorization: `Bearer ${upstream.providerKey}` }) },
    bare: { name: 'bare', job: chatJob(addresses.bare.port, {}) },
    switchyard: { name: 'switchyard', job: switchyardJob(addresses.switchyard) },
    workers: { name: 'workers', job: switchyardJob(addresses.workers) },
    portkey: {
      name: 'portkey',
      job: chatJob(addresses.portkey.port, {
        authorization: `Bearer ${upstream.providerKey}`,
        'x-portkey-provider': 'openai',
        'x-portkey-custom-host': upstream.url,
      }),
    },
  };
}
