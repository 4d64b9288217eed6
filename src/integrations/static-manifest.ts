/**
 * Writes the static manifest (content-hash ETags, precompressed variants) once
 * the build has written every file. This is build time: nothing serves the new
 * files yet, so nothing is published to WebSub subscribers here.
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { writeStaticManifest } from '../lib/static/manifest.ts';

export function staticManifest(): AstroIntegration {
  return {
    name: 'roofing-reviews:static-manifest',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const started = performance.now();
        const manifest = writeStaticManifest(fileURLToPath(dir));
        const files = new Set(Object.values(manifest).map((entry) => entry.file)).size;
        logger.info(`static manifest: ${files} files hashed and precompressed in ${Math.round(performance.now() - started)} ms`);
      },
    },
  };
}
