export type { Store } from './store.ts';
export { createStore, storeConfigFromEnv, type StoreConfig } from './create.ts';
