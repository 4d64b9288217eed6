/**
 * The editors' content as Astro collections. One loader reads the whole
 * `content/` folder through src/lib/content (schemas in editor-schema.ts) so
 * that cross-references are checked across files and every problem is reported
 * at once, with the file, the field and what is wrong.
 */
import { defineCollection } from 'astro:content';
import { resolve } from 'node:path';
import { loadContent } from './lib/content/load.ts';
import { loadEditorial } from './lib/insights/editorial.ts';
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

// The insights' editorial FAQ and summary (content/insights/), validated by their own loader;
// kept in the data store so on-demand routes never read content files at request time.
const editorial = defineCollection({
  loader: {
    name: 'roofing-reviews:editorial',
    load: async ({ store }) => {
      const loaded = loadEditorial(resolve(contentDir()));
      store.clear();
      store.set({ id: 'editorial', data: { faq: loaded.faq, summary: loaded.summary } });
    },
  },
});

export const collections = { reviews, business: businessCollection, editorial };
