/** The ApiContext for Astro's on-demand routes. */
import type { ApiContext } from '../lib/api/context.ts';
import { getDataset } from './dataset.ts';

export async function getApiContext(): Promise<ApiContext> {
  return { site: import.meta.env.SITE.replace(/\/$/, ''), dataset: await getDataset() };
}
