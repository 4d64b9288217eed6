/**
 * The editors' content as Astro collections. One loader reads the whole
 * `content/` folder through src/lib/content (schemas in editor-schema.ts) so
 * that cross-references are checked across files and every problem is reported
 * at once, with the file, the field and what is wrong.
 */
import { defineCollection } from 'astro:content';
import { resolve } from 'node:path';
import { loadContent } from './lib/content/load.ts';
import { buildInsights, loadEditorial } from './lib/insights/index.ts';
import { buildDataset } from './lib/reviews/dataset.ts';
import { contentDir } from './lib/config/site.ts';
import { business, review } from './lib/reviews/schema.ts';

let pending: ReturnType<typeof loadContent> | undefined;
function load() {
  // Both collections come from one pass over the folder.
  pending ??= loadContent(resolve(contentDir()));
  return pending;
}

const reviews = defineCollection({
  loader: {
    name: 'roofing-reviews:reviews',
    load: async ({ store }) => {
      pending = undefined;
      const content = load();
      store.clear();
      for (const entry of content.reviews) store.set({ id: entry.id, data: entry });
    },
  },
  schema: review,
});

const businessCollection = defineCollection({
  loader: {
    name: 'roofing-reviews:business',
    load: async ({ store }) => {
      const content = load();
      store.clear();
      store.set({ id: 'business', data: content.business });
    },
  },
  schema: business,
});

// insights.json, computed here from the reviews and the editorial FAQ and summary
// (content/insights/): the NLP runs once, at build time, and the result sits in the data
// store, so neither pages nor on-demand routes (MCP's get_insights) recompute it or read
// content files at request time. A stale figure in the summary fails the build here.
const insights = defineCollection({
  loader: {
    name: 'roofing-reviews:insights',
    load: async ({ store, logger }) => {
      const content = load();
      const dataset = buildDataset(content.business, content.reviews);
      const data = buildInsights(dataset, loadEditorial(resolve(contentDir())), (message) => logger.warn(message));
      store.clear();
      store.set({ id: 'insights', data: data as unknown as Record<string, unknown> });
    },
  },
});

export const collections = { reviews, business: businessCollection, insights };
