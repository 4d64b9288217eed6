/**
 * Writes the static manifest (content-hash ETags, precompressed variants) once
 * the build has written every file. This is build time: nothing serves the new
 * files yet, so nothing is published to WebSub subscribers here.
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { writeStaticManifest } from '../lib/static/manifest.ts';

/** `precompress`: false for CDN hosts, which compress themselves (see writeStaticManifest). */
export function staticManifest({ precompress }: { precompress: boolean }): AstroIntegration {
  let site: string | undefined;
  return {
    name: 'roofing-reviews:static-manifest',
    hooks: {
      'astro:config:done': ({ config }) => {
        site = config.site;
      },
      'astro:build:done': async ({ dir, logger }) => {
        const started = performance.now();
        const manifest = await writeStaticManifest(fileURLToPath(dir), { site, precompress });
        const files = new Set(Object.values(manifest).map((entry) => entry.file)).size;
        logger.info(`static manifest: ${files} files hashed${precompress ? ' and precompressed' : ''} in ${Math.round(performance.now() - started)} ms`);
      },
    },
  };
}
