/**
 * The scheduled endpoint is public on the internet; only the host's scheduler
 * may run it. Vercel sends `Authorization: Bearer $CRON_SECRET` with each cron
 * call; anything else is refused before any work starts.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { jsonAnswer } from '../../lib/http/json.ts';
import type { ApiAnswer } from '../../lib/http/answer.ts';

/** Undefined when the request may run the sweep; otherwise the answer (401). */
export function cronRefusal(authorization: string | null, secret: string): ApiAnswer | undefined {
  const given = /^Bearer (.+)$/.exec(authorization?.trim() ?? '')?.[1] ?? '';
  // Hashes of equal length, so the comparison takes the same time whatever was sent.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  if (given && timingSafeEqual(digest(given), digest(secret))) return undefined;
  return jsonAnswer(
    {
      error: 'unauthorized',
      message: 'This endpoint is for the host scheduler: send Authorization: Bearer <CRON_SECRET>.',
    },
    { status: 401, headers: { 'www-authenticate': 'Bearer' } },
  );
}
