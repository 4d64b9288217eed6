/** The one state store of this process. */
import { createStore, storeConfigFromEnv, type Store } from '../lib/store/index.ts';

let store: Store | undefined;

/** One store per process, shared by the MCP endpoint and the hub: one Redis connection, one sweep timer. */
export function getStore(): Store {
  store ??= createStore(storeConfigFromEnv(process.env));
  return store;
}
