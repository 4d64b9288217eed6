/** The ApiContext for Astro's on-demand routes. */
import type { ApiContext } from '../lib/api/context.ts';
import { createSearchMissLimit, searchMissRuleFromEnv, type SearchMissLimit } from '../lib/limits/search-misses.ts';
import { getDatasetSource } from './dataset.ts';
import { astroSite } from './site-origin.ts';

/** One count for the instance, read from the environment on the first request (null: no limit). */
let searchMisses: SearchMissLimit | null | undefined;

/** The instance's count of new searches per client, shared by the API and /mcp; undefined: no limit. */
export function getSearchMissLimit(): SearchMissLimit | undefined {
  if (searchMisses === undefined) {
    const rule = searchMissRuleFromEnv(process.env);
    searchMisses = rule ? createSearchMissLimit(rule) : null;
  }
  return searchMisses ?? undefined;
}

export async function getApiContext(): Promise<ApiContext> {
  const limit = getSearchMissLimit();
  return { site: astroSite(), dataset: await getDatasetSource(), ...(limit ? { searchMisses: limit } : {}) };
}
