/**
 * Vercel's Build Output API config (`.vercel/output/config.json`), as the
 * adapter wrote it, with our header rules and the cron added. Header routes go
 * first with `continue: true`, so they add headers to whatever the later
 * routes (the adapter's `handle: filesystem`, then the function) answer.
 * https://vercel.com/docs/build-output-api/configuration
 */
import { ruleSource, type HeaderRule } from '../header-rules.ts';

export interface VercelRoute {
  src?: string;
  handle?: string;
  headers?: Record<string, string>;
  continue?: boolean;
  dest?: string;
  [key: string]: unknown;
}

export interface VercelCron {
  path: string;
  schedule: string;
}

export interface VercelConfig {
  version: number;
  routes?: VercelRoute[];
  crons?: VercelCron[];
  [key: string]: unknown;
}

export function withHeadersAndCrons(
  config: VercelConfig,
  rules: readonly HeaderRule[],
  crons: readonly VercelCron[],
): VercelConfig {
  // Vercel validates route objects strictly: nothing but its own fields.
  // The expression Netlify matches the same rule with, anchored: both hosts cover the same paths.
  const ours: VercelRoute[] = rules.map((rule) => ({
    src: `^${ruleSource(rule.path)}$`,
    headers: rule.headers,
    continue: true,
  }));
  const otherCrons = (config.crons ?? []).filter((cron) => !crons.some((mine) => mine.path === cron.path));
  return { ...config, routes: [...ours, ...(config.routes ?? [])], crons: [...otherCrons, ...crons] };
}
