// Watches the settings file for edits by the user, the UI or another Switchyard process. The directory is
// watched rather than the file: editors and our own atomic writes replace the file by renaming a new one over
// it, and a watch on the old file would go quiet. Bursts of events (one save can be three) are debounced.

import { watch } from 'node:fs';
import type { Logger } from '../common/index.js';
import { toDisposable, type Disposable } from '../../shared/events/index.js';
import { settingsFileName } from './settings-file.js';

export function watchSettingsFile(
  dataDir: string,
  onChange: () => void,
  options: { logger: Logger; debounceMs?: number },
): Disposable {
  const debounceMs = options.debounceMs ?? 200;
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dataDir, { persistent: false }, (_event, fileName) => {
    // Some platforms do not say which file changed; reloading an unchanged file is cheap and skipped.
    if (fileName && fileName.toString() !== settingsFileName) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  });
  watcher.on('error', (error) => options.logger.warn({ err: error }, 'watching the MCP settings file failed'));
  return toDisposable(() => {
    clearTimeout(timer);
    watcher.close();
  });
}
