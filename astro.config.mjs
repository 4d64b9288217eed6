// @ts-check
import netlify from '@astrojs/netlify';
import node from '@astrojs/node';
import vercel from '@astrojs/vercel';
import { defineConfig } from 'astro/config';
import { contentErrorsInDev } from './src/integrations/content-errors/index.ts';
import { editorSchemas } from './src/integrations/editor-schemas.ts';
import { hostConfig } from './src/hosts/build-config.ts';
import { staticManifest } from './src/integrations/static-manifest.ts';
import { hostSiteUrl } from './src/hosts/site-url.ts';
import { deployTarget } from './src/hosts/target.ts';

// Settings that tests and scale builds change come from the environment
// (documented in the README): the content folder, the output folder and the
// site's public URL, which goes into feeds, topics and permalinks.
const outDir = process.env.ASTRO_OUT_DIR ?? './dist';

// The host: DEPLOY_TARGET=node|netlify|vercel, or detected from NETLIFY / VERCEL
// on those hosts' builders (docs/deploy.md). Only the adapter and the host's
// header/cron config differ; the same src/lib handlers answer on all three.
const target = deployTarget();
// Node: the adapter's handler only renders; src/server.ts serves the static files and routes (no second static handler).
const adapters = { node: () => node({ mode: 'middleware' }), netlify: () => netlify(), vercel: () => vercel() };

export default defineConfig({
  site: hostSiteUrl(target),
  output: 'static',
  outDir,
  cacheDir: process.env.ASTRO_CACHE_DIR ?? './node_modules/.astro',
  trailingSlash: 'ignore',
  adapter: adapters[target](),
  integrations: [
    editorSchemas(),
    contentErrorsInDev(),
    staticManifest({ precompress: target === 'node' }),
    hostConfig(target),
  ],
  // The WebSub hub takes form POSTs from other origins by design (W3C WebSub §5.1);
  // Astro's origin check would 403 them. Every endpoint here is public and read-only.
  security: { checkOrigin: false },
  build: { format: 'directory' },
  vite: {
    define: { __DEPLOY_TARGET__: JSON.stringify(target) },
    build: { chunkSizeWarningLimit: 4096 },
    // The /admin form's script imports zod: optimised up front, so the first visit in dev does not reload the page.
    optimizeDeps: { include: ['zod'] },
  },
});
