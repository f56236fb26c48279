// A cooldown shared by a team server: two `switchyard serve` instances on one real PostgreSQL, a failing and a
// healthy fake upstream. Instance A cools the failing target; instance B then sends nothing to it, and the CLI (on the
// same database) shows the state.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderInfo } from '../../shared/api/index.js';
import type { RunningServer } from '../support/cli.js';
import { answer, fail, FakeOpenAI } from '../support/fake-openai.js';
import { waitFor } from '../support/wait-for.js';
import { startTeam, type Team } from './team-harness.js';

let team: Team;
let primary: FakeOpenAI;
let backup: FakeOpenAI;

beforeAll(async () => {
  primary = new FakeOpenAI({ models: ['m1'], fallback: fail(503) });
  backup = new FakeOpenAI({ models: ['m1'], fallback: answer('answer from backup') });
  await primary.start();
  await backup.start();
  team = await startTeam({ serveArgs: ['--no-ui'] });
  const add = (id: string, baseUrl: string, ...flags: string[]) =>
    team.cli(['providers', 'add', id, '--kind', 'openai', '--base-url', baseUrl, '--no-api-key', ...flags]);
  await add('primary', primary.baseUrl, '--cooldown-after', '3', '--cooldown', '120');
  await add('backup', backup.baseUrl);
});

afterAll(async () => {
  await team?.close();
  await primary?.close();
  await backup?.close();
});

async function ask(server: RunningServer, key: string): Promise<{ status: number; content: string }> {
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'primary/m1',
      models: ['primary/m1', 'backup/m1'],
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    }),
  });
  const body = (await response.json()) as { choices: { message: { content: string } }[] };
  return { status: response.status, content: body.choices[0]!.message.content };
}

describe('a cooldown on a team server', () => {
  it('decided by one instance holds in the other, which never calls the cooled target', async () => {
    const { key } = await team.createKey('team');
    const [a, b] = [await team.serve(), await team.serve()];

    // Three requests on A, each trying primary three times (its retries): three failed requests cool it.
    for (let i = 0; i < 3; i += 1) expect(await ask(a, key)).toEqual({ status: 200, content: 'answer from backup' });
    expect(primary.chatRequests()).toHaveLength(9);
    const stored = async () =>
      (
        await team.pool.query<{ state: string; provider: string }>(
          "SELECT state, provider FROM target_health WHERE model = 'primary/m1'",
        )
      ).rows;
    expect(await waitFor(async () => (await stored()).length > 0 && stored(), { what: 'the stored cooldown' })).toEqual(
      [{ state: 'cooling', provider: 'primary' }],
    );
    // B hears of the change through PostgreSQL's notification within milliseconds of the write (decision 030);
    // the wait leaves it that, with room to spare on a loaded machine.
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    for (let i = 0; i < 3; i += 1) expect(await ask(b, key)).toEqual({ status: 200, content: 'answer from backup' });
    expect(primary.chatRequests()).toHaveLength(9);
    expect(backup.chatRequests()).toHaveLength(6);

    const listed = JSON.parse(await team.cli(['providers', 'list', '--json'])) as ProviderInfo[];
    expect(listed.find((provider) => provider.id === 'primary')?.targets).toEqual([
      { model: 'primary/m1', provider: 'primary', state: 'cooling', until: expect.any(String) },
    ]);
    const until = Date.parse(listed.find((provider) => provider.id === 'primary')!.targets![0]!.until!);
    expect(until).toBeGreaterThan(Date.now());
  }, 120_000);
});
