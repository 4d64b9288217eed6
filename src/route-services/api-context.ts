/** The ApiContext for Astro's on-demand routes. */
import type { ApiContext } from '../lib/api/context.ts';
import { getDatasetSource } from './dataset.ts';
import { astroSite } from './site-origin.ts';

export async function getApiContext(): Promise<ApiContext> {
  return { site: astroSite(), dataset: await getDatasetSource() };
}
