/**
 * One scheduled tick of a serverless deployment: the idempotent sweep (due
 * retries, expired leases), then publishing whatever changed since the last
 * distribution (after a deploy). Claims in the store keep each delivery and
 * each change to one instance, however many run it at once.
 */
import { toResponse } from '../lib/http/answer.ts';
import { jsonAnswer } from '../lib/http/json.ts';
import type { HubService } from '../lib/websub/service.ts';

export async function runScheduledWork(
  hub: HubService,
  options: { publish: boolean } = { publish: true },
): Promise<Response> {
  const sweep = await hub.hub.sweep();
  const published = options.publish ? await hub.hub.publishChanged() : [];
  const count = (outcome: string) => sweep.outcomes.filter((o) => o === outcome).length;
  return toResponse(
    jsonAnswer({
      sweep: {
        due: sweep.due,
        delivered: count('delivered'),
        failed: count('failed'),
        ended: count('ended') + count('gone'),
        skipped: count('skipped'),
      },
      published: published.map((outcome) => ({ topic: outcome.topic, result: outcome.result })),
    }),
  );
}
