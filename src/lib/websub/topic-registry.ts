/**
 * The hub's topics: the datasets of docs/contract.md and the moderation log, by URL (src/lib/feeds/links.ts)
 * with the path the site serves them at (the URL's, as links.ts puts every
 * address at the site's root) and a short id for store keys.
 */
import { siteLinks } from '../feeds/links.ts';

export interface Topic {
  id: 'atom' | 'json-feed' | 'reviews' | 'moderation';
  url: string;
  path: string;
}

export interface TopicRegistry {
  all: Topic[];
  hub: string;
  byUrl(url: string): Topic | undefined;
  byId(id: string): Topic | undefined;
}

export function topicRegistry(site: string): TopicRegistry {
  const links = siteLinks(site);
  const topic = (id: Topic['id'], url: string): Topic => ({ id, url, path: new URL(url).pathname });
  const all: Topic[] = [
    topic('atom', links.atomFeed),
    topic('json-feed', links.jsonFeed),
    topic('reviews', links.reviewsJson),
    topic('moderation', links.moderationJson),
  ];
  return {
    all,
    hub: links.hub,
    // Exact topic URLs, compared after URL normalisation (case of scheme and host, default port).
    byUrl: (url) => all.find((topic) => topic.url === URL.parse(url)?.href),
    byId: (id) => all.find((topic) => topic.id === id),
  };
}
