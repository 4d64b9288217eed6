/**
 * Builds widget.js from src/widget/index.ts: one minified ES module, with
 * nothing from the site's server code but the type-only imports (erased) and
 * the pure link helpers. esbuild is the bundler Astro and its adapters already
 * install; it runs at build time (and per request in `astro dev`), never in
 * the deployed server.
 */
import { build } from 'esbuild';
import { resolve } from 'node:path';

/** Builds run from the project's root (npm scripts, the test builds, the hosts' builders). */
const WIDGET_ENTRY = resolve(process.cwd(), 'src/widget/index.ts');

export async function bundleWidget(entry = WIDGET_ENTRY): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    // The browsers the widget works in (docs/widget.md): constructable stylesheets and AbortSignal.timeout.
    target: ['chrome103', 'firefox101', 'safari16.4'],
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.text;
}
