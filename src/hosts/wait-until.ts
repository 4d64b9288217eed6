/**
 * How an Astro route keeps work running after its answer: the host's
 * `waitUntil` on Netlify or Vercel, else the Node server's tracker of pending
 * work (finished on SIGTERM), else nothing (the process simply lives on).
 */
import { processWork } from '../lib/platform/pending-work.ts';
import type { Defer } from '../lib/websub/hub.ts';
import { netlifyDefer } from './netlify/wait-until.ts';
import { vercelDefer } from './vercel/wait-until.ts';

export function deferFor(locals: App.Locals): Defer | undefined {
  return netlifyDefer(locals) ?? vercelDefer() ?? processWork()?.track;
}
