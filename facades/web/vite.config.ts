import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { prerenderPublicPages } from './prerender.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Where `npm run dev:web` sends API calls (the API started with `npm start` or `seo serve`). */
const api = process.env.WEB_DEV_API ?? 'http://127.0.0.1:3000';

/** GraphiQL's modules start with "use no memo" (a React Compiler hint), harmless when bundled. */
const onLog: NonNullable<NonNullable<UserConfig['build']>['rolldownOptions']>['onLog'] = (level, log, handler) => {
  if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
  handler(level, log);
};

/**
 * The server's build of the app (`vite build --ssr`, run by the incremental build after the client's): one module,
 * dist/web-ssr/entry-server.js, that the API process loads to render signed-in pages (facades/http/server-render.ts).
 * Its dependencies are bundled in (React's server renderer among them, as its production build); the routes' chunks
 * stay chunks beside it, loaded when a page needs them (the GraphQL explorer's editor never is).
 */
const serverBuild = defineConfig({
  root: here,
  publicDir: false,
  plugins: [react()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: 'src/entry-server.tsx',
    outDir: fileURLToPath(new URL('../../dist/web-ssr', import.meta.url)),
    emptyOutDir: true,
    target: 'node20',
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        // The server loads this module with its build time in the URL (a rebuild loads the new one), and the routes'
        // chunks import what they share with it from its plain URL: a second instance. A module with state the render
        // provides to the pages (a React context) is therefore a chunk of its own, one instance for both.
        codeSplitting: { groups: [{ name: 'render-context', test: /\/src\/lib\/streamed-query\.ts$/ }] },
      },
      onLog,
    },
  },
});

/**
 * The web application: a GraphQL client like any dashboard, built to dist/web and served by the API process
 * at /. Each route is its own chunk; the landing and sign-in pages load only what they need.
 */
const clientBuild = defineConfig({
  root: here,
  base: '/',
  plugins: [react(), prerenderPublicPages(here)],
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // GraphiQL's editor (monaco) is one large lazily loaded chunk of the explorer route.
    chunkSizeWarningLimit: 4096,
    reportCompressedSize: false,
    // dist/web/.vite/manifest.json: which chunks each route loads (the size budget test reads it).
    manifest: true,
    rolldownOptions: {
      output: {
        // Fewer, larger files: a browser opens 6 connections to an HTTP/1.1 origin, so the ~35 small shared chunks
        // of automatic splitting loaded in about six waves before a signed-in page could run. The code every page
        // runs is one chunk; a shared chunk under 60 KB (before minifying) is copied into the chunks that use it.
        // Route chunks stay lazy and the page budgets hold (web-bundle-size.test.ts); test/bench/web.bench.ts
        // measures the effect on LCP.
        codeSplitting: {
          groups: [{ name: 'core', tags: ['$initial'] }],
          experimentalInlineCommonChunks: { maxSize: 60_000 },
        },
      },
      onLog,
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    // API paths go to the API; /graphql/explorer is a page of this app, so /graphql is matched exactly.
    proxy: Object.fromEntries(
      ['^/graphql$', '^/api/', '^/docs', '^/healthz$', '^/readyz$'].map((path) => [
        path,
        { target: api, changeOrigin: false },
      ]),
    ),
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? serverBuild : clientBuild));
