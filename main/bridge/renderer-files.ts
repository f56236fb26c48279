// Where the built renderer is: dist/renderer, next to the compiled main (dist/main/bridge/…) or, when main runs
// from source (tsx), under the repository's dist/.

import { existsSync } from 'node:fs';
import path from 'node:path';

export function defaultRendererDir(here: string = import.meta.dirname): string {
  const root = path.resolve(here, '../..');
  return path.basename(root) === 'dist' ? path.join(root, 'renderer') : path.join(root, 'dist', 'renderer');
}

export function isRendererBuilt(dir: string): boolean {
  return existsSync(path.join(dir, 'index.html'));
}
