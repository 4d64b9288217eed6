/**
 * The route patterns of src/pages as Astro's file-based routing makes them
 * (`reviews/[id].astro` → `/reviews/[id]`, `index` → its folder), split by each
 * page's `prerender` export: what the host-config integration receives from
 * `astro:routes:resolved`, for computing header rules of other manifests (10k,
 * a synthetic 100k) than the host builds'. headers.test.ts checks the two agree.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/builds.ts';

const PAGES = join(ROOT, 'src/pages');

export function pageRoutes(): { dynamic: string[]; prerendered: string[] } {
  const dynamic: string[] = [];
  const prerendered: string[] = [];
  for (const entry of readdirSync(PAGES, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(astro|ts)$/.test(entry.name)) continue;
    const file = relative(PAGES, join(entry.parentPath, entry.name)).split('\\').join('/');
    if (file.split('/').some((part) => part.startsWith('_'))) continue;
    const pattern = `/${file.replace(/\.(astro|ts)$/, '').replace(/(^|\/)index$/, '')}`;
    const source = readFileSync(join(PAGES, file), 'utf8');
    const prerender = /export const prerender = (true|false)/.exec(source)?.[1];
    if (prerender === undefined) throw new Error(`${file} does not say whether it is prerendered`);
    (prerender === 'true' ? prerendered : dynamic).push(pattern === '/' ? '/' : pattern.replace(/\/$/, ''));
  }
  return { dynamic, prerendered: prerendered.filter((pattern) => pattern.includes('[')) };
}
