/** The ApiContext for Astro's on-demand routes. */
import type { ApiContext } from '../lib/api/context.ts';
import { createSearchMissLimit, searchMissRuleFromEnv, type SearchMissLimit } from '../lib/limits/search-misses.ts';
import { getDatasetSource } from './dataset.ts';
import { astroSite } from './site-origin.ts';

/** One count for the instance, read from the environment on the first request (null: no limit). */
let searchMisses: SearchMissLimit | null | undefined;

export async function getApiContext(): Promise<ApiContext> {
  if (searchMisses === undefined) {
    const rule = searchMissRuleFromEnv(process.env);
    searchMisses = rule ? createSearchMissLimit(rule) : null;
  }
  return { site: astroSite(), dataset: await getDatasetSource(), ...(searchMisses ? { searchMisses } : {}) };
}
