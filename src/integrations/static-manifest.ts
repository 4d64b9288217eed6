/**
 * Writes the static manifest (content-hash ETags, precompressed variants) once
 * the build has written every file. This is build time: nothing serves the new
 * files yet, so nothing is published to WebSub subscribers here.
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { acceptEarlyCompressions, writeStaticManifest } from '../lib/static/manifest.ts';

/** `precompress`: false for CDN hosts, which compress themselves (see writeStaticManifest). */
export function staticManifest({ precompress }: { precompress: boolean }): AstroIntegration {
  let site: string | undefined;
  return {
    name: 'roofing-reviews:static-manifest',
    hooks: {
      'astro:config:done': ({ config }) => {
        site = config.site;
      },
      // The largest endpoints' files are compressed during the prerender (compressEarly).
      'astro:build:start': () => {
        if (precompress) acceptEarlyCompressions();
      },
      'astro:build:done': async ({ dir, logger }) => {
        const started = performance.now();
        const compressedEarly: string[] = [];
        const manifest = await writeStaticManifest(fileURLToPath(dir), { site, precompress, compressedEarly });
        const files = new Set(Object.values(manifest).map((entry) => entry.file)).size;
        const early =
          compressedEarly.length > 0 ? ` (${compressedEarly.join(', ')} compressed during the prerender)` : '';
        logger.info(
          `static manifest: ${files} files hashed${precompress ? ' and precompressed' : ''}${early} in ${Math.round(performance.now() - started)} ms`,
        );
      },
    },
  };
}
