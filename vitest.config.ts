import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Native modules (better-sqlite3, keytar) and child processes are happier in forked workers than in threads.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['main/**/*.test.ts', 'shared/**/*.test.ts', 'test/**/*.test.ts'],
        },
      },
      {
        // The renderer's components and reducers, in a DOM of their own: happy-dom implements <dialog>.showModal(),
        // which the UI's dialogs open with, and is small.
        extends: true,
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['renderer/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
