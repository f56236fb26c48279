// The version in package.json, for `app:info` in `switchyard serve` (Electron has app.getVersion()).

import { readFileSync } from 'node:fs';
import path from 'node:path';

let cached: string | undefined;

/** Looks upwards from this file for Switchyard's package.json (source and compiled layouts differ in depth). */
export function appVersion(start: string = import.meta.dirname): string {
  if (cached) return cached;
  for (let dir = start; ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'switchyard' && manifest.version) return (cached = manifest.version);
    } catch {
      // no package.json here: keep looking
    }
    if (path.dirname(dir) === dir) return (cached = '0.0.0');
  }
}
