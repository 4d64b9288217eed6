/**
 * The hub's topics: exactly the three of the seed, by URL (src/lib/feeds/links.ts)
 * with the path the site serves them at and a short id for store keys.
 */
import { siteLinks } from '../feeds/links.ts';

export interface Topic {
  id: 'atom' | 'json-feed' | 'reviews';
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
  const all: Topic[] = [
    { id: 'atom', url: links.atomFeed, path: '/feed.xml' },
    { id: 'json-feed', url: links.jsonFeed, path: '/api/feed.json' },
    { id: 'reviews', url: links.reviewsJson, path: '/reviews.json' },
  ];
  const normalise = (url: string) => {
    try {
      return new URL(url).href;
    } catch {
      return undefined;
    }
  };
  return {
    all,
    hub: links.hub,
    // Exact topic URLs, compared after URL normalisation (case of scheme and host, default port).
    byUrl: (url) => {
      const href = normalise(url);
      return href === undefined ? undefined : all.find((topic) => topic.url === href);
    },
    byId: (id) => all.find((topic) => topic.id === id),
  };
}
