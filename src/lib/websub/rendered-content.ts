/**
 * A topic's content rendered in this process from the content collections, by
 * the same functions the build's prerendered routes call (src/pages/reviews.json.ts,
 * feed.xml.ts, api/feed.json.ts, moderation.json.ts), so the bytes are the ones
 * the CDN serves. A serverless function has the collections but not the static
 * files; fetching its own CDN would cost a round trip and, on a preview
 * deployment, read production. Rendered once per process: the content never
 * changes in one.
 */
import { atomFeed } from '../feeds/atom.ts';
import { jsonFeed } from '../feeds/json-feed.ts';
import { toJsonBody } from '../http/json.ts';
import type { ModerationLog, ReviewsDataset } from '../reviews/schema.ts';
import { contentTypeFor } from '../static/content-types.ts';
import type { ContentSource, TopicContent } from './content.ts';

export interface RenderedInputs {
  dataset(): Promise<ReviewsDataset>;
  moderation(): Promise<ModerationLog>;
}

const RENDERERS: Record<string, (inputs: RenderedInputs, site: string) => Promise<string>> = {
  '/reviews.json': async (inputs) => toJsonBody(await inputs.dataset()),
  '/feed.xml': async (inputs, site) => atomFeed(await inputs.dataset(), site),
  '/api/feed.json': async (inputs, site) => toJsonBody(jsonFeed(await inputs.dataset(), site)),
  '/moderation.json': async (inputs) => toJsonBody(await inputs.moderation()),
};

export function renderedContentSource(inputs: RenderedInputs, site: string): ContentSource {
  const rendered = new Map<string, Promise<TopicContent>>();
  const siteHref = new URL(site).href;
  return async (path) => {
    const render = RENDERERS[path];
    if (!render) return undefined;
    let content = rendered.get(path);
    if (!content) {
      content = render(inputs, siteHref).then((text) => ({
        body: Buffer.from(text),
        contentType: contentTypeFor(path),
      }));
      rendered.set(path, content);
      content.catch(() => rendered.delete(path));
    }
    return content;
  };
}
