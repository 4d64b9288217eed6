/**
 * What a serverless deployment must be given before its stateful endpoints can
 * work. A function instance keeps nothing between requests and its file system
 * is read-only, so the store must be Redis and the MCP session key must be the
 * same on every instance. A missing setting is the operator's to fix: the
 * endpoint answers 503 naming it (never a 500 from a failed write to a
 * read-only folder), and the build warns.
 */
import { jsonAnswer } from '../lib/http/json.ts';
import { MIN_SECRET_LENGTH } from '../lib/mcp/config.ts';
import type { ApiAnswer } from '../lib/http/answer.ts';

type Env = Record<string, string | undefined>;

export type Setting = 'REDIS_URL' | 'MCP_SESSION_SECRET' | 'CRON_SECRET' | 'SITE_URL';

export interface Requirement {
  setting: Setting;
  problem: string;
}

const WHY: Record<Setting, string> = {
  REDIS_URL:
    'the URL of a Redis server (redis:// or rediss://) shared by every function instance: WebSub subscriptions, retries, MCP sessions',
  MCP_SESSION_SECRET: `a random string of at least ${MIN_SECRET_LENGTH} characters (openssl rand -base64 32) that signs MCP session ids on every instance`,
  CRON_SECRET: 'a random string the scheduler sends as `Authorization: Bearer <CRON_SECRET>`',
  SITE_URL: "the site's public URL (https://reviews.example.com), which names the WebSub topics",
};

/** The settings among `needed` that are unset or unusable in `env`. */
export function unmetRequirements(needed: readonly Setting[], env: Env): Requirement[] {
  const unmet: Requirement[] = [];
  for (const setting of needed) {
    const value = env[setting]?.trim();
    if (!value) unmet.push({ setting, problem: `${setting} is not set: ${WHY[setting]}` });
    else if (setting === 'MCP_SESSION_SECRET' && value.length < MIN_SECRET_LENGTH) {
      unmet.push({
        setting,
        problem: `MCP_SESSION_SECRET is shorter than ${MIN_SECRET_LENGTH} characters: ${WHY[setting]}`,
      });
    } else if (setting === 'REDIS_URL' && !/^rediss?:\/\//i.test(value)) {
      unmet.push({ setting, problem: `REDIS_URL must start with redis:// or rediss://: ${WHY[setting]}` });
    }
  }
  return unmet;
}

/** The 503 a stateful endpoint answers while the deployment lacks a setting. */
export function notConfigured(unmet: readonly Requirement[]): ApiAnswer {
  return jsonAnswer(
    {
      error: 'not_configured',
      message: `This deployment is missing configuration: ${unmet.map((u) => u.problem).join('; ')}. Set it in the host's environment variables and redeploy.`,
      settings: unmet.map((u) => u.setting),
    },
    { status: 503 },
  );
}

/** What each serverless endpoint needs. */
export const NEEDS = {
  mcp: ['REDIS_URL', 'MCP_SESSION_SECRET'],
  hub: ['REDIS_URL'],
  cron: ['CRON_SECRET', 'REDIS_URL'],
} as const satisfies Record<string, readonly Setting[]>;
