/**
 * How long the Node entry waits for a request body and how many bytes it holds
 * for bodies still arriving. Without them 200 connections each sending a 1 MiB
 * /mcp body that stops 1 KB short hold ~190 MB for Node's 300 s request timeout.
 * The same for the answers of /mcp and the hub on the way out: how long a
 * client may take to read one and how many bytes of them wait at once for
 * clients that do not read. Serverless hosts bound both themselves; this is Node only.
 */
import { z } from 'zod';

export interface BodySettings {
  /** Time to receive a whole body once its headers are in; then 408 and the connection closes. */
  deadlineMs: number;
  /** Bytes held at once, across connections, for bodies not yet complete; a body that would pass it gets 503. */
  budgetBytes: number;
  /** Time a client has to take a whole answer of /mcp or the hub; then the connection closes. */
  answerDeadlineMs: number;
  /** Bytes of finished answers held at once, across connections, until their clients take them; past it, 503. */
  answerBudgetBytes: number;
}

export const DEFAULT_BODY_SETTINGS: BodySettings = {
  // 1 MiB (the /mcp limit) in 10 s needs 100 KB/s: any client that means it has that.
  deadlineMs: 10_000,
  // 32 bodies of the largest kind (/mcp, 1 MiB) arriving at once, or 512 of the hub's 64 KiB.
  budgetBytes: 32 * 1024 * 1024,
  // The largest /mcp answer (its 4 MiB budget and the JSON around it) in 30 s needs about 150 KB/s.
  answerDeadlineMs: 30_000,
  // Sixteen of the largest /mcp answers unread at once; thousands of ordinary ones.
  answerBudgetBytes: 64 * 1024 * 1024,
};

const positiveInteger = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be above 0`);

const bodyEnv = z.object({
  REQUEST_BODY_TIMEOUT_MS: positiveInteger('REQUEST_BODY_TIMEOUT_MS').default(DEFAULT_BODY_SETTINGS.deadlineMs),
  REQUEST_BODY_BUDGET_BYTES: positiveInteger('REQUEST_BODY_BUDGET_BYTES').default(DEFAULT_BODY_SETTINGS.budgetBytes),
  RESPONSE_BODY_TIMEOUT_MS: positiveInteger('RESPONSE_BODY_TIMEOUT_MS').default(DEFAULT_BODY_SETTINGS.answerDeadlineMs),
  RESPONSE_BODY_BUDGET_BYTES: positiveInteger('RESPONSE_BODY_BUDGET_BYTES').default(
    DEFAULT_BODY_SETTINGS.answerBudgetBytes,
  ),
});

export function bodySettingsFromEnv(env: Record<string, string | undefined>): BodySettings {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, value]) => value?.trim()));
  const parsed = bodyEnv.safeParse(blankless);
  if (!parsed.success)
    throw new Error(
      parsed.error.issues.map((issue) => `${issue.message}, got "${env[String(issue.path[0])]}"`).join('; '),
    );
  return {
    deadlineMs: parsed.data.REQUEST_BODY_TIMEOUT_MS,
    budgetBytes: parsed.data.REQUEST_BODY_BUDGET_BYTES,
    answerDeadlineMs: parsed.data.RESPONSE_BODY_TIMEOUT_MS,
    answerBudgetBytes: parsed.data.RESPONSE_BODY_BUDGET_BYTES,
  };
}

/**
 * Node's own clocks, as a backstop for what the entry does not read itself
 * (bodies Astro's routes stream): headers within 20 s, the whole request within
 * that and the body deadline, checked every 2 s (Node's default, 30 s, would
 * let a request live up to twice its timeout). Idle keep-alive connections
 * stay 65 s, past the 60 s idle timeout of common load balancers, so the
 * balancer is the side that closes them.
 */
export function serverTimeouts(settings: BodySettings) {
  const headersTimeout = 20_000;
  return {
    headersTimeout,
    requestTimeout: headersTimeout + settings.deadlineMs,
    connectionsCheckingInterval: 2_000,
    keepAliveTimeout: 65_000,
  };
}
