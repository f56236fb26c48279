import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is built to dist/renderer with relative asset paths, so the same files load from the
// Electron shell (file://) and from `switchyard serve` (http://).
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../dist/renderer', emptyOutDir: true },
});
