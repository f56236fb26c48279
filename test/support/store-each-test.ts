// For tests over a real store: each test gets a new data dir with a SQLite store in it, and any other Store opened on
// the same database (as another process would). They are closed and the dir removed after the test, once the
// file's own afterEach has closed what it built over them.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openStore, type Store } from '../../main/store/index.js';

export interface EachTestStore {
  readonly dataDir: string;
  readonly store: Store;
  /** Another Store on the test's database, as another process opens it. */
  openAnother(): Store;
}

export function useStoreEachTest(): EachTestStore {
  let dataDir: string | undefined;
  const opened: Store[] = [];
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-'));
    opened.push(openStore(dataDir));
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });
  const current = () => {
    if (!dataDir || !opened[0]) throw new Error('the store is opened before each test');
    return { dataDir, store: opened[0] };
  };
  return {
    get dataDir() {
      return current().dataDir;
    },
    get store() {
      return current().store;
    },
    openAnother() {
      const another = openStore(current().dataDir);
      opened.push(another);
      return another;
    },
  };
}
