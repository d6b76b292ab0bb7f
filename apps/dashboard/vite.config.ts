import { defineConfig } from 'vitest/config';

// Served by the API under /dashboard (same origin). Vite emits module scripts and stylesheets as
// files, never inline, so the page runs under a strict Content-Security-Policy.
export default defineConfig({
  base: '/dashboard/',
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { minify: true } },
  },
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
