/**
 * Builds the phone dashboard (web/client) into dist/client, which the server serves. During
 * development `npx vite` serves it with hot reload and passes the socket and the API through to a
 * clew server on port 8080.
 */
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'web/client',
  base: '/',
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: true })],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // Phones at a table are often a few years old: stay on widely supported syntax.
    target: 'es2020',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/socket.io': { target: 'http://localhost:8080', ws: true },
      '/api': 'http://localhost:8080',
    },
  },
});
