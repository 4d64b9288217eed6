/**
 * Which host the build is for: one setting, DEPLOY_TARGET, or the host's own
 * build variables when it is unset (Netlify sets NETLIFY=true, Vercel sets
 * VERCEL=1), so a plain `astro build` on either host needs no configuration.
 * The Node server stays the default everywhere else.
 */
import { z } from 'zod';

const deployTargetSchema = z.enum(['node', 'netlify', 'vercel']);
export type DeployTarget = z.infer<typeof deployTargetSchema>;

type Env = Record<string, string | undefined>;

export function deployTarget(env: Env = process.env): DeployTarget {
  const raw = env.DEPLOY_TARGET?.trim().toLowerCase();
  if (raw) {
    const parsed = deployTargetSchema.safeParse(raw);
    if (!parsed.success)
      throw new Error(
        `DEPLOY_TARGET must be one of ${deployTargetSchema.options.join(', ')}; got "${env.DEPLOY_TARGET}"`,
      );
    return parsed.data;
  }
  if (env.NETLIFY === 'true') return 'netlify';
  if (env.VERCEL === '1' || env.VERCEL === 'true') return 'vercel';
  return 'node';
}

/** Targets where every request may meet a fresh instance and the file system is read-only. */
export const isServerless = (target: DeployTarget): boolean => target !== 'node';
