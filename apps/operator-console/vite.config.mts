import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The operator console's build (`npm run build:console`): static assets in
 * dist/operator-console, served by server/ with a strict CSP, so nothing
 * inline: no inline script, no inlined asset, no eval.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  resolve: { alias: { '@platform/api-client': resolve(import.meta.dirname, '../../libs/api-client/src/index.ts') } },
  build: {
    outDir: resolve(import.meta.dirname, '../../dist/operator-console'),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: true,
    target: 'es2022',
  },
});
