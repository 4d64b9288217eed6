// @ts-check
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import { editorSchemas } from './src/integrations/editor-schemas.ts';
import { staticManifest } from './src/integrations/static-manifest.ts';
import { siteUrl } from './src/lib/config/site.ts';

// Settings that tests and scale builds change come from the environment
// (documented in the README): the content folder, the output folder and the
// site's public URL, which goes into feeds, topics and permalinks.
const outDir = process.env.ASTRO_OUT_DIR ?? './dist';

export default defineConfig({
  site: siteUrl(),
  output: 'static',
  outDir,
  cacheDir: process.env.ASTRO_CACHE_DIR ?? './node_modules/.astro',
  trailingSlash: 'ignore',
  adapter: node({ mode: 'standalone' }),
  integrations: [editorSchemas(), staticManifest()],
  // The WebSub hub takes form POSTs from other origins by design (W3C WebSub §5.1);
  // Astro's origin check would 403 them. Every endpoint here is public and read-only.
  security: { checkOrigin: false },
  build: { format: 'directory' },
  vite: {
    build: { chunkSizeWarningLimit: 4096 },
  },
});
