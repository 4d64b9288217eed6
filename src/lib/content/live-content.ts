/**
 * One read of the content folder shared by every collection, and, while an
 * editor previews with `astro dev`, read again whenever a file in the folder is
 * added, changed or removed (Astro hands loaders Vite's file watcher).
 *
 * A build reads once and a mistake throws (the build fails with every problem).
 * In dev a mistake must not stop the server: the last good content stays in the
 * collections, the problem is logged and kept (see contentProblemInDev), the
 * pages throw it so the dev overlay shows the file and field, and the next good
 * read clears it.
 *
 * In dev the pages also read the last good content itself (contentInDev), not
 * Astro's data store: the store reaches the pages only after a debounced write
 * to disk and a module reload, and a page rendered while that reload races the
 * write can keep the old content until the next edit. The preview must show
 * every save on the next load.
 */
import { sep } from 'node:path';

type WatchedEvent = 'add' | 'change' | 'unlink';
const EVENTS: WatchedEvent[] = ['add', 'change', 'unlink'];

/** The parts of Astro's loader context this module uses (kept structural: no Astro import). */
interface FollowContext {
  collection: string;
  logger: { info(message: string): void; warn(message: string): void; error(message: string): void };
  watcher?: {
    add(path: string): unknown;
    on(event: WatchedEvent, listener: (path: string) => void): unknown;
    off(event: WatchedEvent, listener: (path: string) => void): unknown;
  };
}

export interface LiveContent<T> {
  /** Calls `apply` with the content now, and again after every change while `context.watcher` runs. */
  follow(context: FollowContext, apply: (snapshot: T) => void): Promise<void>;
}

export type ContentSnapshot<L> = L extends LiveContent<infer T> ? T : never;

// Shared through globalThis: Astro evaluates the content config and the pages in
// different module graphs, so a module variable would not be seen by both.
const PROBLEM = Symbol.for('roofing-reviews:content-problem');
const CONTENT = Symbol.for('roofing-reviews:content-in-dev');
type Global = typeof globalThis & { [PROBLEM]?: Error; [CONTENT]?: unknown };

/** The content mistake `astro dev` is showing now, if any. Always undefined in a build. */
export function contentProblemInDev(): Error | undefined {
  return (globalThis as Global)[PROBLEM];
}

/**
 * The last good read in `astro dev`, as the read function returned it (the caller names its
 * type). Always undefined in a build, where pages read Astro's data store.
 */
export function contentInDev<T>(): T | undefined {
  return (globalThis as Global)[CONTENT] as T | undefined;
}

function setProblem(error: Error | undefined): void {
  (globalThis as Global)[PROBLEM] = error;
}

const WATCHED = /\.(md|ya?ml)$/;
const SETTLE_MS = 80;

export function liveContent<T>(dir: string, read: (dir: string, warn: (message: string) => void) => T | Promise<T>): LiveContent<T> {
  let current: T | undefined;
  // The first read, shared by every collection's loader (Astro runs them at once).
  let first: Promise<T> | undefined;
  const appliers = new Map<string, (snapshot: T) => void>();
  const watched = new WeakSet<object>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let logger: FollowContext['logger'] | undefined;
  // A read may take a while (a large folder): a change during one reads again after it, never at the same time.
  let reading = false;
  let again = false;

  const readNow = async (): Promise<T> => read(dir, (message) => logger?.warn(message));

  const reread = async () => {
    timer = undefined;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      current = await readNow();
      if (contentProblemInDev()) logger?.info('content problems fixed');
      (globalThis as Global)[CONTENT] = current;
      setProblem(undefined);
      for (const apply of appliers.values()) apply(current);
    } catch (error) {
      setProblem(asError(error));
      logger?.error(asError(error).message);
    } finally {
      reading = false;
      if (again) {
        again = false;
        void reread();
      }
    }
  };

  const onFile = (path: string) => {
    if (!path.startsWith(dir + sep) || !WATCHED.test(path)) return;
    // An editor's save is often several events (write, rename): read once they settle.
    clearTimeout(timer);
    timer = setTimeout(() => void reread(), SETTLE_MS);
  };

  return {
    async follow(context, apply) {
      logger ??= context.logger;
      // One applier per collection: Astro may call load again when the config reloads.
      appliers.set(context.collection, apply);
      const { watcher } = context;
      if (current === undefined) {
        try {
          current = await (first ??= readNow());
          setProblem(undefined);
        } catch (error) {
          first = undefined;
          if (!watcher) throw error;
          setProblem(asError(error));
          context.logger.error(asError(error).message);
        }
      }
      if (current !== undefined) apply(current);
      if (!watcher) return;
      if (current !== undefined) (globalThis as Global)[CONTENT] = current;
      if (!watched.has(watcher)) {
        watched.add(watcher);
        watcher.add(dir);
      }
      // Astro drops every loader's listeners before each full sync (the dev server's `s` key)
      // and calls load again: listen again, once however many collections follow.
      for (const event of EVENTS) {
        watcher.off(event, onFile);
        watcher.on(event, onFile);
      }
    },
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
