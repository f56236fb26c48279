// Migration 13 ('message versions') on both engines: conversations stored before it become one line (each message
// follows the one written before it, ties of time in the order written), and afterwards a message's parent and
// chosen order are stored and changed alike by SQLite and PostgreSQL.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { newChatMessage } from '../../shared/bridge/chat-message.js';
import { usePostgresStores } from '../../test/support/postgres-store.js';
import { databaseFileName, openStore, type Store } from './index.js';
import { migrate } from './sqlite/migrate.js';
import { migrations } from './sqlite/migrations.js';
import { migratePostgres } from './postgres/index.js';
import { postgresMigrations } from './postgres/migrations.js';

const postgres = usePostgresStores();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Written before versions existed: m2 and m3 share a time, so only the order they were written in tells them apart.
const before = [
  ['c1', 'm1', 'user', 10],
  ['c1', 'm3', 'assistant', 20],
  ['c1', 'm2', 'tool', 20],
  ['c2', 'n1', 'user', 15],
  ['c1', 'm4', 'user', 30],
] as const;

function sqliteAt12(): { folder: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-versions-'));
  cleanups.push(() => fs.rmSync(folder, { recursive: true, force: true }));
  const db = new Database(path.join(folder, databaseFileName));
  migrate(db, migrations.slice(0, 12));
  for (const id of ['c1', 'c2']) {
    db.prepare(
      `INSERT INTO conversations (id, title, model, system_prompt, temperature, created_at, updated_at)
       VALUES (?, 't', NULL, '', NULL, 1, 1)`,
    ).run(id);
  }
  for (const [conversation, id, role, time] of before) {
    db.prepare(
      `INSERT INTO messages (id, conversation_id, role, status, created_at, search_text)
       VALUES (?, ?, ?, 'complete', ?, '')`,
    ).run(id, conversation, role, time);
  }
  db.close();
  return { folder };
}

async function postgresAt12(): Promise<string> {
  const url = await postgres.database();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migratePostgres(pool, postgresMigrations.slice(0, 12));
    for (const id of ['c1', 'c2']) {
      await pool.query(
        `INSERT INTO conversations (id, title, model, system_prompt, temperature, created_at, updated_at)
         VALUES ($1, 't', NULL, '', NULL, 1, 1)`,
        [id],
      );
    }
    for (const [conversation, id, role, time] of before) {
      await pool.query(
        `INSERT INTO messages (id, conversation_id, role, status, created_at, search_text)
         VALUES ($1, $2, $3, 'complete', $4, '')`,
        [id, conversation, role, time],
      );
    }
  } finally {
    await pool.end();
  }
  return url;
}

const engines: { name: string; upgraded: () => Promise<Store> }[] = [
  {
    name: 'sqlite',
    upgraded: async () => {
      const store = openStore(sqliteAt12().folder);
      cleanups.push(() => store.close());
      return store;
    },
  },
  { name: 'postgres', upgraded: async () => postgres.open(await postgresAt12()) },
];

describe.each(engines)('message versions on $name', ({ upgraded }) => {
  it('migrates a stored conversation as one line, in the order its messages were written', async () => {
    const store = await upgraded();
    const line = (await store.chat.listMessages('c1')).map(({ id, parentId, chosenOrder }) => [
      id,
      parentId,
      chosenOrder,
    ]);
    expect(line).toEqual([
      ['m1', null, 0],
      ['m3', 'm1', 0],
      ['m2', 'm3', 0],
      ['m4', 'm2', 0],
    ]);
    expect((await store.chat.listMessages('c2')).map((message) => message.parentId)).toEqual([null]);
  });

  it('stores a version’s parent and chosen order, and changes the order', async () => {
    const store = await upgraded();
    const version = newChatMessage({
      id: 'm3b',
      conversationId: 'c1',
      role: 'assistant',
      status: 'complete',
      createdAt: 40,
      content: 'another answer',
      parentId: 'm1',
      chosenOrder: 1,
    });
    await store.chat.insertMessage(version);
    expect(await store.chat.getMessage('m3b')).toEqual(version);
    expect(await store.chat.updateMessage('m3', { chosenOrder: 2 })).toMatchObject({ chosenOrder: 2, parentId: 'm1' });
    expect((await store.chat.getMessage('m3'))?.chosenOrder).toBe(2);
    expect((await store.chat.listConversations({ query: 'another answer' })).map((found) => found.id)).toEqual(['c1']);
  });
});
