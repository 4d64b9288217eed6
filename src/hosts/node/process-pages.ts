/**
 * Where the Node entry registers the pages it keeps (src/lib/http/kept-pages.ts)
 * for Astro's middleware in the same process, which was bundled separately (a
 * global symbol crosses the two bundles, a module instance cannot): the
 * middleware keeps what Astro renders there, and the entry answers those URLs
 * from then on without entering Astro. On a serverless host and in `astro dev`
 * nothing is registered: the middleware keeps pages of its own, or none.
 */
import type { KeptPages } from '../../lib/http/kept-pages.ts';

const REGISTRY = Symbol.for('roofing-reviews.kept-pages');

export function registerProcessPages(pages: KeptPages): void {
  (globalThis as Record<symbol, unknown>)[REGISTRY] = pages;
}

export function processPages(): KeptPages | undefined {
  return (globalThis as Record<symbol, unknown>)[REGISTRY] as KeptPages | undefined;
}
