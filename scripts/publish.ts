/**
 * The post-deploy ping: `npm run publish -- --site https://reviews.example.com`
 * asks the deployed hub (`--hub`, default <site>/api/websub/hub) to publish
 * each topic. The hub notifies only for topics whose content changed since it
 * last distributed them, so running this after every deploy is safe.
 * For hosts whose only hook is a command (serverless); the Node server
 * publishes by itself once it listens.
 */
import { parseArgs } from 'node:util';
import { siteLinks } from '../src/lib/feeds/links.ts';

const { values } = parseArgs({
  options: { site: { type: 'string' }, hub: { type: 'string' }, timeout: { type: 'string', default: '10000' } },
});
const site = values.site ?? process.env.SITE_URL;
if (!site) {
  console.error('usage: npm run publish -- --site https://your.site [--hub https://your.site/api/websub/hub]');
  process.exit(2);
}
const links = siteLinks(site);
const hub = values.hub ?? links.hub;
let failed = false;
for (const topic of [links.atomFeed, links.jsonFeed, links.reviewsJson]) {
  try {
    const response = await fetch(hub, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': topic }),
      signal: AbortSignal.timeout(Number(values.timeout)),
    });
    const text = (await response.text()).trim();
    console.log(`${response.status} ${topic}${response.status === 202 ? '' : ` ${text}`}`);
    if (response.status !== 202) failed = true;
  } catch (error) {
    console.error(`failed ${topic}: ${(error as Error).message}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
