// The `switchyard keys|credits|prices|usage` commands through the real CLI process.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiKeyDetails,
  CreditLedgerEntry,
  KeyWithUsage,
  ModelPriceInfo,
  UsageRecord,
  UsageSummaryRow,
} from '../../shared/api/index.js';
import { openStore } from '../../main/store/index.js';
import { runCli } from '../support/cli.js';

let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-cli-accounts-'));
});

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Each command is a fresh node + tsx process: generous timeouts for loaded machines.
const slow = { timeout: 120_000 };
const cli = (...args: string[]) =>
  runCli([...args, '--data-dir', dataDir], { env: { SWITCHYARD_SECRET_STORE: 'file' } });

describe('keys create / update / list with rules', () => {
  it('creates a key with rules, shows them, changes them, and explains bad input', slow, async () => {
    const created = await cli(
      'keys',
      'create',
      '--name',
      'ruled',
      '--json',
      '--limit',
      '5',
      '--limit-reset',
      'weekly',
      '--allow-models',
      'up/*,other/echo-1',
      '--allow-providers',
      'local',
      '--no-management',
      '--rpm',
      '10',
      '--tpm',
      '1000',
      '--expires',
      '2030-01-01T00:00:00Z',
    );
    expect(created.code, created.stderr).toBe(0);
    const { id, key } = JSON.parse(created.stdout) as { id: string; key: string };
    const spent = await cli('keys', 'create', '--name', 'spent', '--json', '--limit', '0');
    const spentId = (JSON.parse(spent.stdout) as { id: string }).id;

    const listed = await cli('keys', 'list', '--json');
    const details = (JSON.parse(listed.stdout) as KeyWithUsage[]).find((entry) => entry.id === id);
    expect(details).toMatchObject({
      limit: 5,
      limit_reset: 'weekly',
      allowed_models: ['up/*', 'other/echo-1'],
      allowed_providers: ['local'],
      management: false,
      expires_at: '2030-01-01T00:00:00.000Z',
      disabled: false,
      requests_per_minute: 10,
      tokens_per_minute: 1000,
      state: 'active',
      limit_remaining: 5,
      limit_resets_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/),
      usage: { requests: 0, cost: 0 },
    });
    expect(new Date(details!.limit_resets_at!).getUTCDay()).toBe(1); // weekly windows start on Monday
    expect((JSON.parse(listed.stdout) as KeyWithUsage[]).find((entry) => entry.id === spentId)).toMatchObject({
      state: 'limit_reached',
      limit_remaining: 0,
    });
    expect(listed.stdout).not.toContain(key);
    const table = await cli('keys', 'list');
    const line = table.stdout.split('\n').find((text) => text.startsWith(id))!;
    for (const shown of [
      'active',
      '$5.00 weekly',
      'up/*,other/echo-1,local/*',
      ' no ',
      '10 rpm 1000 tpm',
      '2030-01-01T00:00:00.000Z',
    ]) {
      expect(line).toContain(shown);
    }
    expect(table.stdout.split('\n').find((text) => text.startsWith(spentId))).toContain('limit reached');

    const updated = await cli(
      'keys',
      'update',
      id,
      '--json',
      '--no-limit',
      '--all-models',
      '--all-providers',
      '--management',
      '--no-expiry',
      '--disable',
      '--no-rpm',
    );
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      id,
      limit: null,
      allowed_models: null,
      allowed_providers: null,
      management: true,
      expires_at: null,
      disabled: true,
      requests_per_minute: null,
      tokens_per_minute: 1000,
    });
    expect((await cli('keys', 'list')).stdout.split('\n').find((text) => text.startsWith(id))).toContain('disabled');
    const enabled = await cli('keys', 'update', id, '--enable', '--limit', '0.5');
    expect(enabled.stdout).toContain(
      'limit $0.50 weekly; access all models; management yes; expires never; rate 1000 tpm; enabled',
    );
    // A new name alone is a change; the rules stay.
    const renamed = await cli('keys', 'update', id, '--name', 'nightly job');
    expect(renamed.stdout).toContain(`Updated key ${id} ("nightly job"): limit $0.50 weekly;`);

    const [nothing, unknown, badDate, badModel, badReset, both] = await Promise.all([
      cli('keys', 'update', id),
      cli('keys', 'update', 'nope', '--disable'),
      cli('keys', 'update', id, '--expires', 'next week'),
      cli('keys', 'update', id, '--allow-models', 'gpt-4o'),
      cli('keys', 'update', id, '--limit-reset', 'hourly'),
      cli('keys', 'update', id, '--disable', '--enable'),
    ]);
    expect(nothing).toMatchObject({ code: 1, stderr: expect.stringMatching(/Nothing to change/) });
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/No API key has the id "nope"/) });
    expect(badDate).toMatchObject({ code: 1, stderr: expect.stringMatching(/expires_at must be an ISO 8601/) });
    expect(badModel).toMatchObject({ code: 1, stderr: expect.stringMatching(/"gpt-4o" is not a "provider\/model"/) });
    expect(badReset.code).not.toBe(0);
    expect(badReset.stderr).toMatch(/hourly/);
    expect(both).toMatchObject({ code: 1, stderr: expect.stringMatching(/either --disable or --enable/) });
  });
});

describe('keys create: the management right', () => {
  it('is off unless --management asks for it (--no-management is still accepted)', slow, async () => {
    const created = await Promise.all(
      [[], ['--management'], ['--no-management']].map(async (flags) => {
        const result = await cli('keys', 'create', '--name', `mgmt${flags.join('')}`, '--json', ...flags);
        expect(result.code, result.stderr).toBe(0);
        return (JSON.parse(result.stdout) as { id: string }).id;
      }),
    );
    const listed = JSON.parse((await cli('keys', 'list', '--json')).stdout) as ApiKeyDetails[];
    const management = created.map((id) => listed.find((key) => key.id === id)?.management);
    expect(management).toEqual([false, true, false]);
  });
});

describe('credits', () => {
  it('shows, sets, adds, refuses negative amounts, keeps a ledger and goes back to unlimited', slow, async () => {
    expect((await cli('credits', 'show')).stdout).toMatch(/^Unlimited: no balance is set/);
    expect((await cli('credits', 'set', '10')).stdout).toBe('Balance: $10.00 (granted $10.00, used $0.00).\n');
    expect((await cli('credits', 'add', '2.5')).stdout).toBe('Balance: $12.50 (granted $12.50, used $0.00).\n');
    const [negative, zero, word] = await Promise.all([
      cli('credits', 'add', '-5'),
      cli('credits', 'add', '0'),
      cli('credits', 'set', 'lots'),
    ]);
    expect(negative).toMatchObject({ code: 1, stderr: expect.stringMatching(/must not be negative/) });
    expect(zero).toMatchObject({ code: 1, stderr: expect.stringMatching(/more than 0/) });
    expect(word.code).not.toBe(0);
    expect(JSON.parse((await cli('credits', 'show', '--json')).stdout)).toEqual({
      limited: true,
      balance: 12.5,
      granted: 12.5,
      used: 0,
    });
    expect((await cli('credits', 'unset')).stdout).toMatch(/^Unlimited/);
    const ledger = JSON.parse((await cli('credits', 'history', '--json')).stdout) as CreditLedgerEntry[];
    expect(ledger.map((entry) => [entry.action, entry.amount, entry.balance_after])).toEqual([
      ['set', 10, 10],
      ['add', 2.5, 12.5],
      ['unset', 0, null],
    ]);
  });
});

describe('prices', () => {
  it('sets, lists and unsets overrides in USD per million tokens', slow, async () => {
    const help = await cli('prices', 'set', '--help');
    expect(help.stdout).toMatch(/USD per MILLION tokens/);
    const set = await cli('prices', 'set', 'echo-1', '--input', '1.5', '--output', '2', '--cache-read', '0.15');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('echo-1: input $1.50, output $2.00, cache read $0.15, cache write at the input price');
    const list = JSON.parse((await cli('prices', 'list', '--json')).stdout) as ModelPriceInfo[];
    expect(list[0]).toEqual({
      model: 'echo-1',
      source: 'override',
      input: 1.5,
      output: 2,
      cache_read: 0.15,
      cache_write: null,
    });
    expect(list).toContainEqual(expect.objectContaining({ model: 'gpt-4o', source: 'builtin', input: 2.5 }));
    const [bad, missing] = await Promise.all([
      cli('prices', 'set', 'x', '--input', 'cheap', '--output', '1'),
      cli('prices', 'set', 'x', '--input', '1'),
    ]);
    expect(bad.code).not.toBe(0);
    expect(missing.code).not.toBe(0);
    expect((await cli('prices', 'unset', 'echo-1')).code).toBe(0);
    expect(await cli('prices', 'unset', 'echo-1')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/No price of yours/),
    });
  });
});

describe('usage', () => {
  const dayOne = Date.parse('2026-02-01T10:00:00Z');
  const dayTwo = Date.parse('2026-02-02T23:59:00Z');
  const cacheDay = Date.parse('2026-01-20T08:00:00Z');

  function row(id: string, overrides: Partial<UsageRecord>): UsageRecord {
    return {
      id,
      created_at: dayOne,
      key_id: 'key-a',
      app_title: null,
      app_referer: null,
      model: 'up/gpt-4o',
      provider: 'up',
      streamed: true,
      status: 200,
      finish_reason: 'stop',
      prompt_tokens: 10,
      completion_tokens: 5,
      cached_tokens: 0,
      reasoning_tokens: 0,
      cost: 0.001,
      latency_ms: 100,
      ttft_ms: 20,
      error: null,
      unpriced: false,
      ...overrides,
    };
  }

  beforeAll(async () => {
    const store = openStore(dataDir);
    try {
      await store.insertUsage([
        row('g1', { app_title: 'My App' }),
        row('g2', { created_at: dayTwo, model: 'up/echo-1', cost: 0, unpriced: true, app_title: '=HYPERLINK("x")' }),
        row('g3', {
          created_at: dayTwo,
          key_id: 'key-b',
          status: 402,
          finish_reason: null,
          prompt_tokens: 0,
          completion_tokens: 0,
          cost: 0,
        }),
        row('g4', {
          created_at: dayTwo,
          finish_reason: 'cancelled',
          cost: 0.000000123,
          app_referer: 'https://x.example',
          cache: 'miss',
        }),
        // Answered by the response cache: nothing spent, what the answer cost upstream saved.
        row('g5', { created_at: cacheDay, cost: 0, cache: 'hit', saved_cost: 0.0025 }),
      ]);
    } finally {
      await store.close();
    }
  });

  it('prints a summary by day by default, with a total', slow, async () => {
    const result = await cli('usage', '--since', '2026-02-01', '--until', '2026-02-03');
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^DAY\s+REQUESTS\s+ERRORS\s+CANCELLED\s+PROMPT\s+COMPLETION\s+CACHED\s+REASONING\s+COST\s+UNPRICED$/,
    );
    expect(lines[1]).toMatch(/^2026-02-01\s+1\s+0\s+0\s+10\s+5\s+0\s+0\s+\$0\.001\s+0$/);
    expect(lines[2]).toMatch(/^2026-02-02\s+3\s+1\s+1\s+20\s+10\s+0\s+0\s+\$0\.00000012 \+ 1 unpriced\s+1$/);
    expect(lines[3]).toMatch(/^TOTAL\s+4\s+1\s+1\s+30\s+15\s+0\s+0\s+\$0\.001 \+ 1 unpriced\s+1$/);
  });

  it('exports CSV with a header, proper quoting and defused formulas', slow, async () => {
    const byApp = await cli('usage', '--since', 'all', '--by', 'app', '--csv');
    expect(byApp.stdout.split('\n')[0]).toBe(
      'app,requests,errors,cancelled,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd,unpriced_requests',
    );
    expect(byApp.stdout).toContain('My App,1,0,0,10,5,0,0,0.001,0\n');
    expect(byApp.stdout).toContain('"\'=HYPERLINK(""x"")",1,0,0,10,5,0,0,0.00,1\n');
    const byKey = await cli('usage', '--since', 'all', '--by', 'key', '--csv');
    expect(byKey.stdout).toContain('key-b,(deleted key),1,1,0,0,0,0,0,0.00,0\n');
    const rows = await cli('usage', '--since', 'all', '--rows', '--csv');
    const lines = rows.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'created_at,id,key_id,app_title,app_referer,model,provider,streamed,status,finish_reason,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd,unpriced,latency_ms,ttft_ms,error,estimated,dropped_tools,cache,saved_cost_usd',
    );
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(/^2026-02-02T23:59:00.000Z,g\d,/);
    expect(lines.find((line) => line.includes(',g4,'))).toMatch(/,miss,$/);
    expect(lines.at(-1)).toBe(
      '2026-01-20T08:00:00.000Z,g5,key-a,,,up/gpt-4o,up,true,200,stop,10,5,0,0,0.00,false,100,20,,false,,hit,0.0025',
    );
  });

  it('lists the requests themselves with --rows, newest first, as a table or as JSON', slow, async () => {
    const table = await cli('usage', '--since', 'all', '--rows', '--limit', '3');
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^TIME\s+KEY\s+APP\s+MODEL\s+STATUS\s+FINISH\s+PROMPT\s+COMPLETION\s+COST\s+LATENCY MS\s+CACHE$/,
    );
    expect(lines.slice(1)).toHaveLength(3);
    expect(lines[1]).toMatch(
      /^2026-02-02T23:59:00\.000Z\s+key-a\s+https:\/\/x\.example\s+up\/gpt-4o\s+200\s+cancelled\s+10\s+5\s+\$0\.00000012\s+100\s+miss$/,
    );
    expect(lines[2]).toMatch(/^2026-02-02T23:59:00\.000Z\s+key-b\s+up\/gpt-4o\s+402\s+0\s+0\s+\$0\.00\s+100$/);
    expect(lines[3]).toMatch(
      /^2026-02-02T23:59:00\.000Z\s+key-a\s+=HYPERLINK\("x"\)\s+up\/echo-1\s+200\s+stop\s+10\s+5\s+unpriced\s+100$/,
    );
    const hit = await cli('usage', '--since', '2026-01-20', '--until', '2026-01-21', '--rows');
    expect(hit.stdout.trim().split('\n')[1]).toMatch(/\s\$0\.00\s+100\s+hit \(saved \$0\.0025\)$/);
    const json = JSON.parse(
      (await cli('usage', '--since', 'all', '--rows', '--json', '--limit', '1')).stdout,
    ) as UsageRecord[];
    expect(json.map((record) => [record.id, record.key_id, record.finish_reason])).toEqual([
      ['g4', 'key-a', 'cancelled'],
    ]);
  });

  it('prints JSON by model, and refuses a period it cannot read', slow, async () => {
    const json = JSON.parse(
      (await cli('usage', '--since', 'all', '--by', 'model', '--json')).stdout,
    ) as UsageSummaryRow[];
    expect(json.map((group) => [group.group, group.requests, group.cost])).toEqual([
      ['up/gpt-4o', 4, 0.001000123],
      ['up/echo-1', 1, 0],
    ]);
    expect((await cli('usage', '--since', '2030-01-01')).stdout).toBe('No usage in this period.\n');
    const bad = await cli('usage', '--since', 'yesterday');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/30d/);
  });
});
