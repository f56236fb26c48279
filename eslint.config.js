// Lint rules, including the runtime layering: shared/ is pure, renderer/ never reaches main/, only the Electron
// shell and preload may import electron, and the folders of main/ import only the layers below them.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'net', 'stream', 'url'];

// The layers inside main/ (docs/decisions/010-layers-in-main.md): the folders each folder of main/ may import.
// Lower layers never reach up; the composition root (app) builds the services, and only the entries (bridge,
// cli, electron) sit above it. Add a folder here when you add one to main/.
const lowerThanServices = ['common', 'files', 'store', 'secrets', 'providers', 'accounts', 'mcp', 'gateway', 'chat'];
const mainLayers = {
  common: [],
  files: ['common'],
  store: ['common', 'files'],
  secrets: ['common', 'files'],
  providers: ['common', 'files', 'store', 'secrets'],
  accounts: ['common', 'files', 'store', 'providers'],
  mcp: ['common', 'files'],
  gateway: ['common', 'files', 'providers', 'accounts'],
  chat: ['common', 'files', 'store', 'secrets', 'mcp'],
  connect: ['common', 'files'],
  tracing: ['common', 'mcp', 'gateway'],
  app: [...lowerThanServices, 'connect', 'tracing'],
  bridge: [...lowerThanServices, 'connect', 'app'],
  cli: [...lowerThanServices, 'connect', 'app', 'bridge'],
  electron: [...lowerThanServices, 'connect', 'app', 'bridge'],
};
const electronImport = { name: 'electron', message: 'Only main/electron and preload import electron.' };
// One upstream HTTP stack: every request to a provider goes through UpstreamHttp (timeouts, size caps, redaction).
const undiciOwner = 'main/providers/http/upstream-http.ts';
const undiciImport = { name: 'undici', message: `Only ${undiciOwner} talks to undici: use UpstreamHttp.` };

/**
 * One config per folder of main/ and per depth below it, so that a relative import is matched exactly:
 * from main/chat/x.ts `../app/…` is main/app, from main/providers/openai/x.ts `../common/…` is providers' own.
 */
function mainLayerConfigs() {
  const folders = Object.keys(mainLayers);
  return folders.flatMap((folder) => {
    const allowed = mainLayers[folder];
    const forbidden = folders.filter((other) => other !== folder && !allowed.includes(other));
    const names = `(${forbidden.join('|')})`;
    const message = `main/${folder} may import only ${allowed.length > 0 ? allowed.map((name) => `main/${name}`).join(', ') : 'shared/ and packages'} (docs/decisions/010-layers-in-main.md).`;
    const ownPaths = folder === 'electron' ? [] : [electronImport];
    return [0, 1, 2, 3].flatMap((depth) => {
      const files = [`main/${folder}/${'*/'.repeat(depth)}*.{ts,cts,mts,js,mjs}`];
      const rules = (paths) => ({
        'no-restricted-imports': [
          'error',
          {
            paths,
            patterns:
              forbidden.length === 0
                ? []
                : [
                    { regex: `^(\\.\\./){${depth + 1}}${names}(/|$)`, message },
                    { regex: `^(\\.\\./)+main/${names}(/|$)`, message },
                  ],
          },
        ],
      });
      const ownsUndici = folder === 'providers' && depth === 1;
      return [
        { files, ignores: [undiciOwner], rules: rules([...ownPaths, undiciImport]) },
        ...(ownsUndici ? [{ files: [undiciOwner], rules: rules(ownPaths) }] : []),
      ];
    });
  });
}

// Layers inside main/gateway (docs/decisions/025-the-gateway-house.md): http/ at the bottom (the wire: auth, error
// shapes, SSE, in-flight, body checks), the transport-free pipeline/ above it, protocols/ and routes/ on top (a
// route may use a protocol's model list), create-gateway.ts wiring them all; deps.ts, types only, is for every layer.
// The gateway reaches main/providers only through its index. A rule of its own (typescript-eslint's copy of
// no-restricted-imports, which also sees type-only imports) so that the main/ layer rule above still applies.
const gatewayLayers = {
  http: ['pipeline', 'protocols', 'routes'],
  pipeline: ['protocols', 'routes'],
  protocols: ['routes'],
  routes: [],
};
// The files of http/ the pipeline may import: those that name no server (what a caller is, where a stream goes,
// error wording, the abort of a request in flight).
const transportFreeHttp = ['exchange', 'errors', 'in-flight'];

function gatewayLayerConfigs() {
  const providersOnlyByIndex = (depth) => ({
    regex: `^(\\.\\./){${depth + 1}}providers/(?!index\\.js$)`,
    message: 'The gateway reaches main/providers only through main/providers/index.ts: export what it needs there.',
  });
  const top = [0].map((depth) => ({
    files: ['main/gateway/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [providersOnlyByIndex(depth)] }] },
  }));
  const layered = Object.entries(gatewayLayers).flatMap(([layer, above]) =>
    [1, 2].map((depth) => {
      const up = `^(\\.\\./){${depth}}`;
      const message = `main/gateway/${layer} may not import ${[...above, 'create-gateway.ts', 'index.ts'].join(', ')} (docs/decisions/025-the-gateway-house.md).`;
      const patterns = [
        providersOnlyByIndex(depth),
        { regex: `${up}(create-gateway|index)\\.js$`, message },
        ...(above.length > 0 ? [{ regex: `${up}(${above.join('|')})(/|$)`, message }] : []),
      ];
      const transportFree =
        layer === 'pipeline'
          ? [
              {
                regex: `${up}http/(?!(${transportFreeHttp.join('|')})\\.js$)`,
                message: `The pipeline knows no transport: of http/ it may import ${transportFreeHttp.join(', ')} only.`,
              },
            ]
          : [];
      const paths =
        layer === 'pipeline'
          ? ['fastify', 'node:http', 'http'].map((name) => ({ name, message: 'The pipeline knows no transport.' }))
          : [];
      return {
        files: [`main/gateway/${layer}/${'*/'.repeat(depth - 1)}*.ts`],
        // Tests may put layers together (an encoder fed by the chunk assembler).
        ignores: ['**/*.test.ts'],
        rules: {
          '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns: [...patterns, ...transportFree] }],
        },
      };
    }),
  );
  return [...top, ...layered];
}

/**
 * The store's inner layering (docs/decisions/026-store-contract-and-engines.md): the contract is below both engines
 * and imports neither; SQLite and PostgreSQL do not import each other, except the PostgreSQL snapshot replica
 * (postgres/replica.ts), which keeps its copy in SQLite's tables (the seam); nothing inside reaches the store's
 * index, which only the rest of the app enters by. Type imports count too. Tests may run both engines.
 */
function storeLayerConfig() {
  const store = './main/store';
  const zone = (target, from, message) => ({ target, from, message: `${message} (docs/decisions/026).` });
  return {
    files: ['main/store/**/*.ts'],
    ignores: ['main/store/**/*.test.ts'],
    plugins: { 'import-x': importX },
    // The TypeScript resolver maps the .js specifiers to the .ts files.
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone(`${store}/contract`, [`${store}/sqlite`, `${store}/postgres`], 'The store contract imports no engine'),
            zone(`${store}/sqlite`, `${store}/postgres`, 'The SQLite engine does not import the PostgreSQL one'),
            zone(
              `${store}/postgres/!(replica).ts`,
              `${store}/sqlite`,
              'The PostgreSQL engine reaches SQLite only through its snapshot replica (postgres/replica.ts)',
            ),
            zone(
              [`${store}/contract`, `${store}/sqlite`, `${store}/postgres`],
              `${store}/index.ts`,
              "The store's index is the door of the rest of the app, not of the store's own files",
            ),
          ],
        },
      ],
    },
  };
}

/** The import rule of a folder that runs outside node: no electron, no node built-ins, none of the named folders. */
function runtimeNeutral({ electron, node, folders, folderMessage }) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [{ name: 'electron', message: electron }],
        patterns: [
          { group: nodeBuiltins, message: node },
          { group: folders, message: folderMessage },
        ],
      },
    ],
  };
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'release/**',
      'node_modules/**',
      'test-artifacts/**',
      'coverage/**',
      '.runtime/**',
      '.venv-test/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [electronImport] }],
    },
  },
  {
    files: ['main/electron/**', 'preload/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  ...mainLayerConfigs(),
  {
    files: ['shared/**'],
    rules: runtimeNeutral({
      electron: 'shared/ is runtime-neutral.',
      node: 'shared/ is runtime-neutral: no node imports.',
      folders: ['**/main/**', '**/renderer/**', '**/preload/**'],
      folderMessage: 'shared/ imports only shared/.',
    }),
  },
  {
    // The rules of hooks and complete dependency lists, so a component never reads a stale value.
    files: ['renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: runtimeNeutral({
      electron: 'The renderer talks only to the bridge.',
      node: 'The renderer runs in a browser: no node imports.',
      folders: ['**/main/**', '**/preload/**'],
      folderMessage: 'The renderer talks only to the bridge in shared/.',
    }),
  },
  {
    // The store's writes are asynchronous (decision 017): a write whose promise nobody awaits would lose its
    // failure, and on PostgreSQL its ordering. Type-aware, so only where it matters: the app's own code.
    files: ['main/**/*.ts'],
    ignores: ['main/**/*.test.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // No import circles in the app's code (scripts/import-circles.ts, run after ESLint by `npm run lint`, also
    // sees the type-only circles this rule passes over).
    files: ['main/**/*.{ts,mts,cts}', 'shared/**/*.ts', 'renderer/src/**/*.{ts,tsx}', 'preload/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The files an import may reach and how to read them, as the plugin's TypeScript preset sets them.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'renderer/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The gateway's own layers (gatewayLayerConfigs above).
  ...gatewayLayerConfigs(),
  // The store: contract below two engines that meet only at the snapshot replica (storeLayerConfig above).
  storeLayerConfig(),
);
