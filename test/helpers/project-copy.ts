/**
 * A private copy of the project for one `astro dev` server.
 *
 * `astro dev` keeps its content store in `<root>/.astro/data-store.json` and
 * reloads the content whenever that file changes, whoever wrote it; Vite keeps
 * its optimised dependencies in `<root>/node_modules/.vite`. Two dev servers in
 * one checkout (two test files running at once) would load each other's
 * content. A copy of the sources with its own `.astro/` and `node_modules/`
 * (a folder of links to the installed packages, without Vite's and Astro's
 * caches) runs the same code with nothing shared.
 */
import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './builds.ts';

const SOURCES = ['src', 'public', 'astro.config.mjs', 'tsconfig.json', 'package.json'];
const CACHES = new Set(['.vite', '.astro']);

/** Copies the project's sources into `root` (made if missing) and returns it. */
export function projectCopy(root: string): string {
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  for (const entry of SOURCES) cpSync(join(ROOT, entry), join(root, entry), { recursive: true });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (!CACHES.has(entry)) symlinkSync(join(ROOT, 'node_modules', entry), join(root, 'node_modules', entry));
  }
  return root;
}
