/**
 * The post-deploy ping: `npm run websub:publish -- --site https://reviews.example.com`
 * asks the deployed hub (`--hub`, default <site>/api/websub/hub) to publish
 * every topic, in one request (one `hub.url` per topic). The hub notifies only
 * for topics whose content changed since it last distributed them, so running
 * this after every deploy is safe. Exits 1 unless the hub answers 202.
 * For hosts whose only hook is a command (serverless); the Node server
 * publishes by itself once it listens.
 */
import { parseArgs } from 'node:util';
import { topicRegistry } from '../src/lib/websub/topic-registry.ts';

const { values } = parseArgs({
  options: { site: { type: 'string' }, hub: { type: 'string' }, timeout: { type: 'string', default: '10000' } },
});
const site = values.site ?? process.env.SITE_URL;
if (!site) {
  console.error('usage: npm run websub:publish -- --site https://your.site [--hub https://your.site/api/websub/hub]');
  process.exit(2);
}
const registry = topicRegistry(site);
const hub = values.hub ?? registry.hub;
const topics = registry.all.map((topic) => topic.url);
const body = new URLSearchParams({ 'hub.mode': 'publish' });
for (const topic of topics) body.append('hub.url', topic);
let failed = false;
try {
  const response = await fetch(hub, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    signal: AbortSignal.timeout(Number(values.timeout)),
  });
  const text = (await response.text()).trim();
  console.log(`${response.status} ${topics.join(' ')}${response.status === 202 ? '' : ` ${text}`}`);
  if (response.status !== 202) failed = true;
} catch (error) {
  console.error(`failed ${topics.join(' ')}: ${(error as Error).message}`);
  failed = true;
}
process.exit(failed ? 1 : 0);
