import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('./dist/web', import.meta.url));

/** Marks a finished build, so `npm start` rebuilds only when a web source is newer (scripts/ensure-web-build.ts). */
const buildStamp = (): Plugin => ({
  name: 'clearbase-build-stamp',
  apply: 'build',
  closeBundle() {
    writeFileSync(`${outDir}/.build-stamp`, new Date().toISOString());
  },
});

/** Recharts and its own dependencies: the 'charts' chunk, loaded with the Reports screen only. */
const CHART_LIBRARIES =
  /node_modules[\\/](recharts|victory-vendor|d3-[^\\/]+|internmap|@reduxjs|redux|redux-thunk|react-redux|reselect|immer|es-toolkit|decimal\.js-light|eventemitter3|tiny-invariant|use-sync-external-store|react-is)[\\/]/;

const serverPort = Number(process.env.PORT ?? 5000);

// The web app is built to dist/web and served by the Fastify server; `npm run dev` proxies the API to it.
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), buildStamp()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src/web', import.meta.url)) } },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: their own chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'radix', test: /node_modules[\\/](radix-ui|@radix-ui)[\\/]/ },
            // Other libraries before the charts' group, so the libraries they share with it (clsx) stay here.
            { name: 'vendor', test: (id: string) => /node_modules[\\/]/.test(id) && !CHART_LIBRARIES.test(id) },
            // Recharts and what it brings (d3 pieces, redux): only the Reports screen draws charts, so they load with it.
            { name: 'charts', test: CHART_LIBRARIES },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': `http://127.0.0.1:${serverPort}`,
      '/healthz': `http://127.0.0.1:${serverPort}`,
      '/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
