/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Server paths the dev server hands to the API on :8080 (the same paths the server keeps out of the app). */
const apiTarget = 'http://localhost:8080';
const proxiedPaths = ['/v1', '/v2', '/health', '/openapi.json', '/docs', '/licenses'];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Scripts imported as `?url` (the conversation client's audio worklets) stay files: inlined as data:
    // URLs the Content-Security-Policy (script-src 'self') would refuse to run them.
    assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined),
  },
  test: {
    // Tests read styles.css as text (`?raw`) to keep its breakpoints in step with lib/breakpoints.ts.
    css: { include: [/src\/styles\.css/] },
  },
  server: {
    port: 5173,
    // `ws`: the realtime sockets (issue 20) upgrade on the same paths.
    proxy: Object.fromEntries(
      proxiedPaths.map((path) => [path, { target: apiTarget, changeOrigin: false, ws: true }]),
    ),
  },
});
