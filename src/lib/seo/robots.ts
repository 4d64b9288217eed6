/**
 * robots.txt (RFC 9309): pages, datasets and feeds are open to every crawler;
 * what is left out is either endless (search and since take any query or date)
 * or not for reading (the hub, /mcp, the editors' admin).
 */
const DISALLOWED = ['/admin/', '/api/reviews/', '/api/websub/', '/api/cron/', '/mcp'];

export function robotsTxt(site: string): string {
  const lines = [
    'User-agent: *',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${new URL('/sitemap.xml', site).href}`,
  ];
  return `${lines.join('\n')}\n`;
}
