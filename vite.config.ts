import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The renderer is built to dist/renderer with relative asset paths, so the same files load from the
// Electron shell (file://) and from `switchyard serve` (http://).
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  resolve: {
    alias: {
      // rehype-katex turns KaTeX's HTML into a syntax tree; the package's browser build parses it through a
      // <template>, whose inline styles the UI's CSP (style-src 'self') refuses and reports. Its other build
      // parses it in JavaScript (parse5), with no DOM and nothing for the CSP to refuse.
      'hast-util-from-html-isomorphic': fileURLToPath(
        new URL('./node_modules/hast-util-from-html-isomorphic/index.js', import.meta.url),
      ),
    },
  },
  // One bundle of about 1.1 MB (React, markdown, highlight.js's common languages and KaTeX) loaded from disk or
  // loopback: splitting it would add requests and gain nothing, so the warning threshold is raised instead.
  // Fonts (KaTeX's) always as files: a small one inlined as a data: URL would be refused by the UI's CSP (font-src
  // falls back to default-src 'self').
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1536,
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
  },
});
