/**
 * Every store this process has opened and not closed, in one set shared
 * through a global symbol by every bundled copy of this module (a serverless
 * function's bundle, the Node entry, a test loading several functions). A
 * function never closes its store (the host freezes the instance), so a
 * process that hosts functions and wants to exit cleanly closes them all here.
 */
import type { Store } from './store.ts';

const REGISTRY = Symbol.for('roofing-reviews.open-stores');

function openStores(): Set<Store> {
  const holder = globalThis as Record<symbol, Set<Store> | undefined>;
  return (holder[REGISTRY] ??= new Set());
}

/** Registers `store`; its own close() takes it out again. */
export function tracked(store: Store): Store {
  const stores = openStores();
  stores.add(store);
  return {
    ...store,
    async close() {
      stores.delete(store);
      await store.close();
    },
  };
}

/** Closes every store still open in this process. */
export async function closeOpenStores(): Promise<void> {
  const stores = [...openStores()];
  openStores().clear();
  await Promise.all(stores.map((store) => store.close().catch(() => {})));
}
