// The benchmark's load generator: how a latency measurement's connections open, and how a run spreads its
// connections over several instances.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectionOpenDelays, connectionPorts, runLoad } from '../../bench/load-generator.js';

describe('connectionOpenDelays', () => {
  it('opens every connection at once without a spread', () => {
    expect(connectionOpenDelays({ connections: 3, durationMs: 4_000 })).toEqual([0, 0, 0]);
  });

  it('opens the connections evenly over the spread', () => {
    expect(connectionOpenDelays({ connections: 4, durationMs: 4_000, startSpreadMs: 200 })).toEqual([0, 50, 100, 150]);
  });

  it('keeps the spread within the first half of the run', () => {
    expect(connectionOpenDelays({ connections: 2, durationMs: 100, startSpreadMs: 1_000 })).toEqual([0, 25]);
  });
});

describe('connectionPorts', () => {
  it('sends every connection to the one port without a list', () => {
    expect(connectionPorts({ connections: 3, port: 8000 })).toEqual([8000, 8000, 8000]);
  });

  it('alternates between the listed ports', () => {
    expect(connectionPorts({ connections: 5, port: 8000, ports: [9001, 9002] })).toEqual([
      9001, 9002, 9001, 9002, 9001,
    ]);
  });
});

describe('runLoad over several ports', () => {
  it('sends requests to every instance, each with its own Host header', async () => {
    const hosts: string[][] = [[], []];
    const servers = hosts.map((seen) =>
      createServer((request, response) => {
        seen.push(request.headers.host ?? '');
        request.resume();
        request.on('end', () => response.end('{}'));
      }),
    );
    const listening = async (server: Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    };
    const ports = await Promise.all(servers.map(listening));
    try {
      const result = await runLoad({
        host: '127.0.0.1',
        port: 1,
        ports,
        path: '/',
        headers: {},
        body: '{}',
        connections: 4,
        durationMs: 200,
      });
      expect(result.errors).toBe(0);
      hosts.forEach((seen, index) => {
        expect(seen.length).toBeGreaterThan(0);
        expect(new Set(seen)).toEqual(new Set([`127.0.0.1:${ports[index]}`]));
      });
      expect(hosts[0]!.length + hosts[1]!.length).toBe(result.responses);
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});
