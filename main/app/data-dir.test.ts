import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveDataDir } from './data-dir.js';

describe('data dir', () => {
  it('follows each OS convention for per-user app data', () => {
    expect(defaultDataDir('linux', {}, '/home/ada')).toBe('/home/ada/.config/Switchyard');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/ada')).toBe('/xdg/Switchyard');
    expect(defaultDataDir('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Application Support/Switchyard');
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\Users\\ada')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Switchyard',
    );
  });

  it('lets the flag win over the environment variable', () => {
    expect(resolveDataDir('/from-flag', { SWITCHYARD_DATA_DIR: '/from-env' })).toBe('/from-flag');
    expect(resolveDataDir(undefined, { SWITCHYARD_DATA_DIR: '/from-env' })).toBe('/from-env');
    expect(resolveDataDir('relative/dir', {})).toBe(path.resolve('relative/dir'));
  });
});
