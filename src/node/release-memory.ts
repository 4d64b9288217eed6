/**
 * One memory-reducing collection once the server's start-up work is done (the
 * records loaded, the texts folded). What start-up left behind (the
 * records parsed one by one while loading, Astro's modules compiled) is garbage V8 would keep, with the pages it freed, until its heap
 * grew enough to collect on its own: at 100k reviews 240 MB of RSS at
 * listening, 195 MB after this collection (docs/performance.md, "Server memory
 * after the load"). Only V8's last-resort collection gives those pages back; a
 * regular full one did not. It needs `--expose-gc` (package.json's `serve`);
 * without it (serverless hosts, other entry points) this does nothing.
 */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export function releaseStartupGarbage(): void {
  (globalThis as { gc?: Collect }).gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
