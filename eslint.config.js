// Lint rules, including the runtime layering: shared/ is pure, renderer/ never reaches main/,
// and only the Electron shell and preload may import electron.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'net', 'stream', 'url'];

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only main/electron and preload import electron.' }] },
      ],
    },
  },
  {
    files: ['main/electron/**', 'preload/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'shared/ is runtime-neutral.' }],
          patterns: [
            { group: nodeBuiltins, message: 'shared/ is runtime-neutral: no node imports.' },
            { group: ['**/main/**', '**/renderer/**', '**/preload/**'], message: 'shared/ imports only shared/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks only to the bridge.' }],
          patterns: [
            { group: nodeBuiltins, message: 'The renderer runs in a browser: no node imports.' },
            { group: ['**/main/**', '**/preload/**'], message: 'The renderer talks only to the bridge in shared/.' },
          ],
        },
      ],
    },
  },
);
