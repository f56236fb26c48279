// The browser UI of a team server behind a load balancer: a management key signs in through one instance and the
// session works on every instance; signing out, or deleting the key, ends it on all of them at once. Two real
// `switchyard serve --database-url …` processes on a throwaway PostgreSQL; the requests are the UI's own.

import { createHash } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../support/cli.js';
import { startTeam, type Team } from './team-harness.js';

let team: Team;
let pool: pg.Pool;
let a: RunningServer;
let b: RunningServer;

const cli = (args: string[]) => team.cli(args);
const createKey = (name: string, ...rules: string[]) => team.createKey(name, ...rules);

const originOf = (server: RunningServer) => new URL(server.baseUrl).origin;

function signIn(server: RunningServer, key: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${originOf(server)}/ui/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ key }),
  });
}

/** The session token from a sign-in's Set-Cookie. */
function sessionOf(response: Response): string {
  const cookie = response.headers.get('set-cookie') ?? '';
  const token = /switchyard_session=([^;]*)/.exec(cookie)?.[1];
  expect(token, cookie).toBeTruthy();
  return token!;
}

/** What the Keys screen asks first, with the session cookie (or none). */
async function listKeys(server: RunningServer, session?: string): Promise<number> {
  const response = await fetch(`${originOf(server)}/bridge/invoke/keys:list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(session ? { cookie: `switchyard_session=${session}` } : {}) },
    body: '{}',
  });
  await response.arrayBuffer();
  return response.status;
}

beforeAll(async () => {
  team = await startTeam();
  pool = team.pool;
  await cli(['keys', 'list']); // migrates the database before two instances start on it
  [a, b] = await Promise.all([team.serve(), team.serve()]);
}, 120_000);

afterAll(async () => {
  await team?.close();
});

describe('signing in to a team server’s UI', () => {
  it('is offered on a team server and refuses what is not a live management key', async () => {
    const offered = (await (await fetch(`${originOf(a)}/ui/sign-in`)).json()) as { available: boolean };
    expect(offered.available).toBe(true);
    expect(await listKeys(a)).toBe(401);

    const stranger = await signIn(a, 'sk-sy-v1-not-a-key');
    expect(stranger.status).toBe(401);
    expect(stranger.headers.get('set-cookie')).toBeNull();
    const plain = await createKey('script');
    const refused = await signIn(a, plain.key);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/management key/);
    expect((await signIn(a, { not: 'a string' })).status).toBe(401);
  });

  it('gives a session that works on every instance, stored only as a hash, until signed out anywhere', async () => {
    const admin = await createKey('admin', '--management');
    const response = await signIn(a, admin.key);
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/); // plain HTTP here; behind TLS (below) it is Secure
    const session = sessionOf(response);

    expect(await listKeys(a, session)).toBe(200);
    expect(await listKeys(b, session)).toBe(200);
    expect(await listKeys(b, `${session}x`)).toBe(401);

    const stored = await pool.query<{ token_hash: Buffer; key_id: string }>(
      'SELECT token_hash, key_id FROM ui_sessions',
    );
    const mine = stored.rows.find((row) => row.key_id === admin.id)!;
    expect(mine.token_hash.equals(createHash('sha256').update(session).digest())).toBe(true);
    expect(JSON.stringify(stored.rows)).not.toContain(session);

    const out = await fetch(`${originOf(b)}/ui/sign-out`, {
      method: 'POST',
      headers: { cookie: `switchyard_session=${session}` },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/switchyard_session=;.*Max-Age=0/);
    expect(await listKeys(a, session)).toBe(401);
    expect(await listKeys(b, session)).toBe(401);
  });

  it('ends every session of a key when the key is deleted or loses its management right', async () => {
    const admin = await createKey('lead', '--management');
    const first = sessionOf(await signIn(a, admin.key, { 'x-forwarded-proto': 'https' }));
    const second = sessionOf(await signIn(b, admin.key));
    expect(await listKeys(b, first)).toBe(200);

    await cli(['keys', 'update', admin.id, '--no-management']);
    expect(await listKeys(a, first)).toBe(401);
    expect(await listKeys(b, second)).toBe(401);

    await cli(['keys', 'update', admin.id, '--management']);
    expect(await listKeys(a, first)).toBe(200);
    await cli(['keys', 'delete', admin.id]);
    expect(await listKeys(a, first)).toBe(401);
    expect(await listKeys(b, second)).toBe(401);
  });

  it('lists sessions without their tokens and revokes one from the CLI, on every instance', async () => {
    const admin = await createKey('on-call', '--management');
    const session = sessionOf(await signIn(a, admin.key));
    const listed = JSON.parse(await cli(['ui', 'sessions', 'list', '--json'])) as { id: string; keyId: string }[];
    const mine = listed.find((row) => row.keyId === admin.id)!;
    expect(mine).toBeDefined();
    expect(JSON.stringify(listed)).not.toContain(session);
    expect(await cli(['ui', 'sessions', 'revoke', mine.id])).toContain(`Revoked UI session ${mine.id}`);
    expect(await listKeys(a, session)).toBe(401);
    expect(await listKeys(b, session)).toBe(401);
    const again = await team.run(['ui', 'sessions', 'revoke', mine.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('No active UI session');
  });

  it('marks the cookie Secure behind a load balancer that terminates TLS', async () => {
    const admin = await createKey('behind-tls', '--management');
    const response = await signIn(a, admin.key, { 'x-forwarded-proto': 'https' });
    expect(response.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  it('slows down guessing: after ten failures from one address, 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1)
      statuses.push((await signIn(b, `sk-sy-v1-guess-${attempt}`)).status);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    const limited = await signIn(b, 'sk-sy-v1-guess-again');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('is not offered by a desktop-style server on SQLite: the printed link stays the only way in', async () => {
    const local = await team.serve({ env: { SWITCHYARD_SECRET_STORE: 'file' } });
    const offered = (await (await fetch(`${originOf(local)}/ui/sign-in`)).json()) as { available: boolean };
    expect(offered.available).toBe(false);
    expect((await signIn(local, 'anything')).status).toBe(404);
  });
});
