/**
 * insights.json as Astro code sees it: computed at build time by the content
 * layer (the `insights` collection in src/content.config.ts) and read from the
 * data store here, at build time and in on-demand routes alike.
 */
import { getEntry } from 'astro:content';
import type { InsightsDataset } from '../lib/insights/schema.ts';
import { throwContentProblem } from './dataset.ts';

export async function getInsights(): Promise<InsightsDataset> {
  throwContentProblem();
  const entry = await getEntry('insights', 'insights');
  if (!entry) throw new Error('the insights collection is empty: the content layer did not run');
  return entry.data as unknown as InsightsDataset;
}
