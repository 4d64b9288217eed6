/**
 * insights.json as Astro code sees it: computed at build time by the content
 * layer (the `insights` collection in src/content.config.ts) and read from the
 * data store here, at build time and in on-demand routes alike (in `astro dev`,
 * from the content loader's last good read, live-content.ts).
 */
import { getEntry } from 'astro:content';
import { contentInDev } from '../lib/content/live-content.ts';
import type { InsightsDataset } from '../lib/insights/schema.ts';
import { throwContentProblem } from './dataset.ts';

export async function getInsights(): Promise<InsightsDataset> {
  throwContentProblem();
  const preview = contentInDev<{ insights: InsightsDataset }>();
  if (preview) return preview.insights;
  const entry = await getEntry('insights', 'insights');
  if (!entry) throw new Error('the insights collection is empty: the content layer did not run');
  return entry.data as unknown as InsightsDataset;
}
