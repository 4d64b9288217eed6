/**
 * The editors' content as Astro collections. One loader reads the whole
 * `content/` folder through src/lib/content (schemas in editor-schema.ts) so
 * that cross-references are checked across files and every problem is reported
 * at once, with the file, the field and what is wrong.
 *
 * In `astro dev` the collections follow Astro's file watcher (see
 * src/lib/content/live-content.ts): an added, changed or removed file is read
 * again and the pages show it on the next load (they read this read's `dataset`
 * and `insights` there, src/route-services); a mistake is shown in the dev
 * overlay until it is fixed. In a build a mistake fails the build.
 */
import { defineCollection } from 'astro:content';
import type { LoaderContext } from 'astro/loaders';
import { resolve } from 'node:path';
import { contentDir } from './lib/config/site.ts';
import { loadEditingSettings } from './lib/content/load.ts';
import { liveContent, type ContentSnapshot } from './lib/content/live-content.ts';
import { loadContentWithInsights } from './lib/build/parallel-load.ts';
import { packReviews, storedReviews } from './lib/content/stored-reviews.ts';
import { buildInsights, loadEditorial } from './lib/insights/index.ts';
import { buildModerationLog } from './lib/reviews/moderation.ts';
import { buildDataset } from './lib/reviews/published-dataset.ts';
import { business } from './lib/reviews/schema.ts';

const content = liveContent(resolve(contentDir()), async (dir, warn) => {
  // A large folder is read and analysed on worker threads (parallel-load.ts), a small one here.
  const { content: loaded, insightOf } = await loadContentWithInsights(dir);
  // insights.json is computed here, from the reviews and the editorial FAQ and summary
  // (content/insights/): the NLP runs once, at build time, and the result sits in the data
  // store, so neither pages nor on-demand routes (MCP's get_insights) recompute it or read
  // content files at request time.
  const dataset = buildDataset(loaded.business, loaded.reviews);
  // The reviews' store entries, in the dataset's order (stored-reviews.ts): deflated on libuv's
  // thread pool while the insights are analysed here.
  const packing = packReviews(dataset.reviews);
  const moderation = buildModerationLog(dataset.reviews, loaded.removals, dataset.updated);
  const insights = {
    ...buildInsights(dataset, loadEditorial(dir), warn, insightOf, {
      notTechnicians: loadEditingSettings(dir).not_technicians,
    }),
    moderation: moderation.counts,
  };
  return { ...loaded, dataset, insights, moderation, packed: await packing };
});

type Snapshot = ContentSnapshot<typeof content>;

/** A loader that fills its collection from the shared snapshot, again on every content change in dev. */
function snapshotLoader(
  name: string,
  fill: (store: LoaderContext['store'], snapshot: Snapshot, context: LoaderContext) => void,
) {
  return {
    name: `roofing-reviews:${name}`,
    load: async (context: LoaderContext) => {
      await content.follow(context, (snapshot) => {
        context.store.clear();
        fill(context.store, snapshot, context);
      });
    },
  };
}

// The reviews as deflated JSON, a few thousand per entry (stored-reviews.ts): at 100k reviews an
// entry per review cost the build minutes of CPU in Astro's store and its bundled module.
const reviews = defineCollection({
  loader: snapshotLoader('reviews', (store, snapshot, { logger }) => {
    for (const entry of snapshot.packed) store.set(entry);
    if (snapshot.unpublished.length > 0) {
      logger.info(
        `${snapshot.unpublished.length} review file(s) marked verified: false, not published: ${snapshot.unpublished.join(', ')}`,
      );
    }
  }),
  schema: storedReviews,
});

const businessCollection = defineCollection({
  loader: snapshotLoader('business', (store, snapshot) => store.set({ id: 'business', data: snapshot.business })),
  schema: business,
});

const insights = defineCollection({
  loader: snapshotLoader('insights', (store, snapshot) =>
    store.set({ id: 'insights', data: snapshot.insights as unknown as Record<string, unknown> }),
  ),
});

const moderation = defineCollection({
  loader: snapshotLoader('moderation', (store, snapshot) =>
    store.set({ id: 'moderation', data: snapshot.moderation as unknown as Record<string, unknown> }),
  ),
});

export const collections = { reviews, business: businessCollection, insights, moderation };
