// Where Switchyard keeps its database, settings and fallback secrets: the same per-user folder the desktop app
// uses (Electron's `app.getPath('userData')` for the product name "Switchyard"), so the CLI, `switchyard serve`
// and the desktop app share one state.

import os from 'node:os';
import path from 'node:path';

export const productName = 'Switchyard';

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  if (platform === 'win32')
    return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), productName);
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', productName);
  return path.posix.join(env.XDG_CONFIG_HOME || path.posix.join(home, '.config'), productName);
}

/** `--data-dir` wins over `SWITCHYARD_DATA_DIR`, which wins over the OS default. */
export function resolveDataDir(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(flag || env.SWITCHYARD_DATA_DIR || defaultDataDir(process.platform, env));
}
