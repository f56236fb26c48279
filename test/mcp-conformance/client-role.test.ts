// The official conformance suite's client scenarios of the 2025-11-25 specification (initialize, tools_call,
// elicitation defaults, SSE retry and the OAuth flows), run against Switchyard's own MCP client through
// conformance-client.ts: the real CLI (`mcp tools`, `mcp call`, `mcp login`) on a temp data dir, as a person runs
// it. The scenarios failing today are listed in expected-failures.yml with the issue item that fixes each.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';
import {
  describeRun,
  expectedFailures,
  expectedFailuresFile,
  runConformance,
  specVersion,
  type SuiteRun,
} from './conformance-suite.js';

const clientCommand = [
  process.execPath,
  '--import',
  'tsx',
  path.join(repoRoot, 'test/mcp-conformance/conformance-client.ts'),
].join(' ');

/**
 * The scenarios outside the auth suite, run one at a time: sse-retry times the client's reconnection against the
 * server's `retry` (a warning when 200 ms late), which a client started beside seventeen others can miss.
 */
const oneAtATime = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

function runClient(selection: string[]): Promise<SuiteRun> {
  return runConformance('client', [
    '--command',
    clientCommand,
    ...selection,
    // A scenario starts the CLI once or twice: slow on a busy machine, never stuck.
    '--timeout',
    '120000',
    '--expected-failures',
    expectedFailuresFile,
  ]);
}

async function expectExpectedFailures(run: SuiteRun, scenarios: string[]): Promise<void> {
  const expected = (await expectedFailures('client')).filter((scenario) => scenarios.includes(scenario));
  expect(run.failing, describeRun(run)).toEqual(expected);
  expect(run.exitCode, run.output).toBe(0);
}

describe(`the conformance suite, client scenarios (spec ${specVersion})`, () => {
  it.each(oneAtATime)(
    "%s passes for Switchyard's client, unless expected to fail",
    async (scenario) => {
      const run = await runClient(['--scenario', scenario]);
      expect(run.scenarios.map((result) => result.scenario)).toEqual([scenario]);
      await expectExpectedFailures(run, [scenario]);
    },
    150_000,
  );

  it('the auth suite passes for `mcp login` and a call, in parallel, but for the expected failures', async () => {
    const run = await runClient(['--suite', 'auth', '--spec-version', specVersion]);
    const scenarios = run.scenarios.map((result) => result.scenario);
    expect(scenarios).toHaveLength(14);
    await expectExpectedFailures(run, scenarios);
  }, 300_000);
});
