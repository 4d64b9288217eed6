/** The Astro side's shared pieces: the site's origin and the one state store of this process. */
import { createStore, storeConfigFromEnv, type Store } from '../lib/store/index.ts';

/** The configured site (SITE_URL at build time) as an origin, the form src/lib takes. */
export function astroSite(): string {
  return new URL(import.meta.env.SITE).origin;
}

let store: Store | undefined;

/** One store per process, shared by the MCP endpoint and the hub: one Redis connection, one sweep timer. */
export function getStore(): Store {
  store ??= createStore(storeConfigFromEnv(process.env));
  return store;
}
