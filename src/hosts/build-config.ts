/**
 * The per-host part of a build: on a serverless target, warn about settings
 * the functions will need, and write the host's header configuration from
 * the static manifest the Node server uses (after src/integrations/static-manifest.ts
 * wrote it): Netlify's `_headers` in the publish folder, Vercel's routes and
 * cron in `.vercel/output/config.json`. The Node target needs neither.
 */
import type { AstroIntegration } from 'astro';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { netlifyHeadersFile } from './netlify/headers-file.ts';
import { NEEDS, unmetRequirements } from './requirements.ts';
import { staticHeaderRules } from './header-rules.ts';
import { isServerless, type DeployTarget } from './target.ts';
import { withHeadersAndCrons, type VercelConfig } from './vercel/output-config.ts';
import { MANIFEST_FILE, type StaticManifest } from '../lib/static/manifest.ts';

/** The cron route (src/pages/api/cron/sweep.ts). */
export const CRON_PATH = '/api/cron/sweep';
/** Once a day: the most Vercel's Hobby plan runs a cron (a more frequent one fails the deploy there). */
export const DEFAULT_CRON_SCHEDULE = '0 5 * * *';

export function hostConfig(
  target: DeployTarget,
  env: Record<string, string | undefined> = process.env,
): AstroIntegration {
  let root = '';
  const dynamicRoutes: string[] = [];
  const prerenderedRoutes: string[] = [];
  return {
    name: 'roofing-reviews:host-config',
    hooks: {
      'astro:config:done': ({ config, logger }) => {
        root = fileURLToPath(config.root);
        if (!isServerless(target)) return;
        const unmet = unmetRequirements(
          [...new Set([...NEEDS.mcp, ...NEEDS.hub, ...(target === 'vercel' ? NEEDS.cron : [])])],
          env,
        );
        for (const { problem } of unmet)
          logger.warn(`${target}: ${problem}. Until it is set, the endpoints that need it answer 503.`);
      },
      'astro:routes:resolved': ({ routes }) => {
        // Paths a function answers: no pattern rule may cover them. Prerendered routes with parameters: one rule for all their files.
        for (const route of routes) (route.isPrerendered ? prerenderedRoutes : dynamicRoutes).push(route.pattern);
      },
      'astro:build:done': ({ dir, logger }) => {
        if (!isServerless(target)) return;
        const clientDir = fileURLToPath(dir);
        const manifestFile = join(clientDir, MANIFEST_FILE);
        const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as StaticManifest;
        const rules = staticHeaderRules(manifest, dynamicRoutes, prerenderedRoutes);
        // A build artefact, not a page: the host's CDN would publish it (its rules are in the headers now).
        rmSync(manifestFile);
        if (target === 'netlify') {
          writeFileSync(join(clientDir, '_headers'), netlifyHeadersFile(rules));
          logger.info(`netlify: _headers written (${rules.length} rules)`);
          return;
        }
        const configFile = join(root, '.vercel/output/config.json');
        const config = JSON.parse(readFileSync(configFile, 'utf8')) as VercelConfig;
        const schedule = env.VERCEL_CRON_SCHEDULE?.trim() || DEFAULT_CRON_SCHEDULE;
        writeFileSync(
          configFile,
          `${JSON.stringify(withHeadersAndCrons(config, rules, [{ path: CRON_PATH, schedule }]), null, 2)}\n`,
        );
        logger.info(
          `vercel: ${rules.length} header routes and the cron (${schedule}) added to .vercel/output/config.json`,
        );
      },
    },
  };
}
