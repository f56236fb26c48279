// Packaging as far as it can be checked without building an installer (which downloads Electron): electron-builder's
// own code reads and validates electron-builder.yml, makes the manifest it packs into the app and the Linux desktop
// entry it installs beside it; and the native modules the app loads are Node-API addons, whose one binary serves Node
// and Electron 45 alike.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';

const require = createRequire(import.meta.url);

interface BuilderConfig {
  appId: string;
  productName: string;
  extraMetadata?: Record<string, unknown>;
  linux: Record<string, unknown>;
  mac?: Record<string, unknown>;
  [key: string]: unknown;
}

const configModule = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, debugLogger: unknown): Promise<void>;
};
const { createTransformer } = require('app-builder-lib/out/fileTransformer.js') as {
  createTransformer(
    srcDir: string,
    config: BuilderConfig,
    extraMetadata: unknown,
    extra: null,
  ): (file: string) => Promise<string | null> | null;
};
const { LinuxTargetHelper } = require('app-builder-lib/out/targets/LinuxTargetHelper.js') as {
  LinuxTargetHelper: new (packager: unknown) => {
    getDesktopFileName(): string;
    computeDesktopEntry(options: Record<string, unknown>): Promise<string>;
  };
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

/** electron-builder.yml as `npm run dist` has electron-builder read it. */
const loadConfig = () => configModule.getConfig(repoRoot, path.join(repoRoot, 'electron-builder.yml'));

/** The package.json that electron-builder writes into the app: ours, with the config's extraMetadata merged in. */
async function packagedManifest(config: BuilderConfig): Promise<Record<string, unknown>> {
  const transform = createTransformer(repoRoot, config, config.extraMetadata ?? null, null);
  const source = path.join(repoRoot, 'package.json');
  const written = await transform(source);
  return JSON.parse(written ?? fs.readFileSync(source, 'utf8')) as Record<string, unknown>;
}

describe('electron-builder.yml', () => {
  it('is valid for the electron-builder the project uses', async () => {
    const config = await loadConfig();
    await expect(configModule.validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('packs a manifest whose entry is the built main process', async () => {
    const manifest = await packagedManifest(await loadConfig());
    expect(manifest.main).toBe('dist/main/electron/main.js');
    expect(manifest.type).toBe('module');
    expect(manifest).not.toHaveProperty('scripts');
  });

  it('gives the Linux window, its desktop entry and the entry’s file one reverse-DNS name', async () => {
    const config = await loadConfig();
    const manifest = await packagedManifest(config);
    // Electron sets the Wayland app_id and X11 WM_CLASS from the packaged manifest's desktopName.
    expect(manifest.desktopName, 'desktopName in the packaged manifest').toBe(`${config.appId}.desktop`);
    const windowId = String(manifest.desktopName).replace(/\.desktop$/, '');

    // The parts of electron-builder's Linux packager that the desktop entry is made from.
    const helper = new LinuxTargetHelper({
      config,
      platformSpecificBuildOptions: config.linux,
      info: { metadata: manifest },
      executableName: 'switchyard',
      appInfo: { productName: config.productName, sanitizedProductName: config.productName },
      fileAssociations: [],
    });
    expect(helper.getDesktopFileName()).toBe(windowId);
    const entry = await helper.computeDesktopEntry(config.linux);
    expect(entry).toContain(`\nStartupWMClass=${windowId}\n`);
    expect(entry).toContain(`\nName=${config.productName}\n`);
  });
});

describe('the native modules', () => {
  it('are Node-API addons, so Electron’s module ABI does not apply to them', () => {
    const Database = require('better-sqlite3') as new (file: string) => { close(): void };
    new Database(':memory:').close();
    require('keytar');
    const loaded = Object.keys(require.cache).filter((file) => file.endsWith('.node'));
    expect(
      loaded
        .map(
          (file) =>
            file
              .split(/[\\/]node_modules[\\/]/)
              .pop()
              ?.split(/[\\/]/)[0],
        )
        .sort(),
    ).toEqual(['better-sqlite3', 'keytar']);
    for (const file of loaded) {
      // What a Node-API addon exports for the runtime to register it; an addon built on V8's API has no such symbol.
      expect(fs.readFileSync(file).includes('napi_register_module_v1'), file).toBe(true);
    }
  });
});
