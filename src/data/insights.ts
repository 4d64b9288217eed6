/**
 * insights.json as Astro code sees it: computed once per process from the
 * reviews dataset and the editorial files in `content/insights/`. A stale
 * figure in the summary fails the build (ContentError); unknown names in
 * review text are logged as warnings.
 */
import { resolve } from 'node:path';
import { contentDir } from '../lib/config/site.ts';
import { buildInsights, loadEditorial } from '../lib/insights/index.ts';
import type { InsightsDataset } from '../lib/insights/schema.ts';
import { getDataset } from './dataset.ts';

let cached: Promise<InsightsDataset> | undefined;

export function getInsights(): Promise<InsightsDataset> {
  cached ??= (async () => buildInsights(await getDataset(), loadEditorial(resolve(contentDir()))))();
  return cached;
}
