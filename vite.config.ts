import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is built to dist/renderer with relative asset paths, so the same files load from the
// Electron shell (file://) and from `switchyard serve` (http://).
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  // One bundle of about 600 kB (React, markdown and highlight.js's common languages) loaded from disk or loopback:
  // splitting it would add requests and gain nothing, so the warning threshold is raised instead.
  build: { outDir: '../dist/renderer', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
});
