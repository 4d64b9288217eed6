/**
 * Where the Node entry registers the answers it keeps by URL
 * (src/lib/http/kept-answers.ts) for Astro's middleware in the same process,
 * which was bundled separately (a global symbol crosses the two bundles, a
 * module instance cannot): the middleware keeps the pages Astro renders there,
 * and the entry answers those URLs from then on without entering Astro. On a
 * serverless host and in `astro dev` nothing is registered: the middleware
 * keeps pages of its own, or none.
 */
import type { KeptAnswers } from '../../lib/http/kept-answers.ts';

const REGISTRY = Symbol.for('roofing-reviews.kept-answers');

export function registerProcessKeptAnswers(kept: KeptAnswers): void {
  (globalThis as Record<symbol, unknown>)[REGISTRY] = kept;
}

export function processKeptAnswers(): KeptAnswers | undefined {
  return (globalThis as Record<symbol, unknown>)[REGISTRY] as KeptAnswers | undefined;
}
