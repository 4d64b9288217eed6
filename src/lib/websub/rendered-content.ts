/**
 * A topic's content rendered in this process from the dataset, by the same
 * functions the build's prerendered routes call (src/pages/reviews.json.ts,
 * feed.xml.ts, api/feed.json.ts), so the bytes are the ones the CDN serves.
 * A serverless function has the dataset but not the static files; fetching
 * its own CDN would cost a round trip and, on a preview deployment, read
 * production. Rendered once per process: the dataset never changes in one.
 */
import { atomFeed } from '../feeds/atom.ts';
import { jsonFeed } from '../feeds/json-feed.ts';
import { toJsonBody } from '../http/json.ts';
import type { ReviewsDataset } from '../reviews/schema.ts';
import { contentTypeFor } from '../static/content-types.ts';
import type { ContentSource, TopicContent } from './content.ts';

const RENDERERS: Record<string, (dataset: ReviewsDataset, site: string) => string> = {
  '/reviews.json': (dataset) => toJsonBody(dataset),
  '/feed.xml': (dataset, site) => atomFeed(dataset, site),
  '/api/feed.json': (dataset, site) => toJsonBody(jsonFeed(dataset, site)),
};

export function renderedContentSource(dataset: () => Promise<ReviewsDataset>, site: string): ContentSource {
  const rendered = new Map<string, Promise<TopicContent>>();
  const siteHref = new URL(site).href;
  return async (path) => {
    const render = RENDERERS[path];
    if (!render) return undefined;
    let content = rendered.get(path);
    if (!content) {
      content = dataset().then((data) => ({
        body: Buffer.from(render(data, siteHref)),
        contentType: contentTypeFor(path),
      }));
      rendered.set(path, content);
      content.catch(() => rendered.delete(path));
    }
    return content;
  };
}
