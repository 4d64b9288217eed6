/**
 * The site's public addresses, derived from its base URL in one place so that
 * feeds, pages, the hub and the server agree on every topic and permalink.
 */
export interface SiteLinks {
  home: string;
  reviewsJson: string;
  insightsJson: string;
  moderationJson: string;
  jsonFeed: string;
  atomFeed: string;
  hub: string;
  openapi: string;
  review(id: string): string;
  /** One review as JSON: the record of reviews.json, a static file (also the MCP resource template's URI). */
  reviewJson(id: string): string;
  /** A tag URI (RFC 4151): an Atom/JSON Feed id that never changes even if the site moves. */
  reviewTag(id: string, date: string): string;
}

export function siteLinks(site: string): SiteLinks {
  const base = new URL(site);
  const at = (path: string) => new URL(path, base).href;
  const authority = base.hostname;
  return {
    home: at('/'),
    reviewsJson: at('/reviews.json'),
    insightsJson: at('/insights.json'),
    moderationJson: at('/moderation.json'),
    jsonFeed: at('/api/feed.json'),
    atomFeed: at('/feed.xml'),
    hub: at('/api/websub/hub'),
    openapi: at('/openapi.json'),
    review: (id) => at(`/reviews/${encodeURIComponent(id)}`),
    reviewJson: (id) => at(`/reviews/${encodeURIComponent(id)}.json`),
    reviewTag: (id, date) => `tag:${authority},${date}:review/${encodeURIComponent(id)}`,
  };
}
