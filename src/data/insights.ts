/**
 * insights.json as Astro code sees it: computed once per process from the
 * reviews dataset and the editorial FAQ and summary (the `editorial` collection,
 * loaded from `content/insights/`). A stale
 * figure in the summary fails the build (ContentError); unknown names in
 * review text are logged as warnings.
 */
import { getEntry } from 'astro:content';
import { buildInsights, EMPTY_EDITORIAL, type Editorial } from '../lib/insights/index.ts';
import type { InsightsDataset } from '../lib/insights/schema.ts';
import { getDataset } from './dataset.ts';

let cached: Promise<InsightsDataset> | undefined;

export function getInsights(): Promise<InsightsDataset> {
  cached ??= (async () => {
    const editorial = (await getEntry('editorial', 'editorial'))?.data as Editorial | undefined;
    return buildInsights(await getDataset(), editorial ?? EMPTY_EDITORIAL);
  })();
  return cached;
}
