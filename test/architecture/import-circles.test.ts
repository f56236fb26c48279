// The check `npm run lint` runs over the house's import graph (scripts/import-circles.ts): it must find a circle of
// any kind of import, and only real circles, and files of main/ over the line limit.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkHouse, findCircles, mainLineLimit } from '../../scripts/import-circles.js';

let root: string;

function house(files: Record<string, string>): string {
  root = mkdtempSync(path.join(tmpdir(), 'switchyard-house-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the import circle check', () => {
  it('finds a circle closed by a type-only import, a re-export and a dynamic import, and names its files', () => {
    const report = checkHouse(
      house({
        'main/gateway/auth.ts': "import type { Keys } from './deps.js';\nexport const auth = 1;\n",
        'main/gateway/deps.ts': "export { hub } from './hub/index.js';\nexport type Keys = string;\n",
        'main/gateway/hub/index.ts': "export const hub = () => import('../auth.js');\n",
        'main/gateway/routes.ts': "import { auth } from './auth.js';\nexport const routes = auth;\n",
        'shared/api/chat.ts': "import { x } from 'zod';\nexport const chat = x;\n",
      }),
    );
    expect(report.circles).toEqual([['main/gateway/auth.ts', 'main/gateway/deps.ts', 'main/gateway/hub/index.ts']]);
    expect(report.longFiles).toEqual([]);
  });

  it('passes a house whose imports all run one way, across folders and from renderer .tsx files', () => {
    const report = checkHouse(
      house({
        'shared/bridge/types.ts': 'export type Id = string;\n',
        'renderer/src/app.tsx':
          "import type { Id } from '../../shared/bridge/types.js';\nimport { View } from './view.js';\n",
        'renderer/src/view.tsx': "import type { Id } from '../../shared/bridge/types.js';\nexport const View = 1;\n",
        'main/app/create-app.ts': "import type { Id } from '../../shared/bridge/types.js';\n",
      }),
    );
    expect(report.circles).toEqual([]);
  });

  it('finds every separate circle, however long the chain', () => {
    const chain = Array.from({ length: 5000 }, (_, at) => `f${at}`);
    const graph = new Map<string, string[]>(chain.map((file, at) => [file, [chain[(at + 1) % chain.length]!]]));
    graph.set('x', ['y']);
    graph.set('y', ['x']);
    graph.set('lone', ['f0']);
    const circles = findCircles(graph);
    expect(circles).toHaveLength(2);
    expect(circles[0]).toHaveLength(5000);
    expect(circles[1]).toEqual(['x', 'y']);
  });

  it('names the files of main/ over the line limit, tests aside', () => {
    const long = 'export const line = 1;\n'.repeat(mainLineLimit + 1);
    const report = checkHouse(
      house({
        'main/chat/chat-service.ts': long,
        'main/chat/chat-service.test.ts': long,
        'main/chat/fits.ts': 'export const line = 1;\n'.repeat(mainLineLimit),
        'renderer/src/long.tsx': long,
      }),
    );
    expect(report.longFiles).toEqual([{ file: 'main/chat/chat-service.ts', lines: mainLineLimit + 1 }]);
  });
});
