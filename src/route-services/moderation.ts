/**
 * moderation.json as Astro code sees it: built by the content layer (the `moderation`
 * collection in src/content.config.ts) with the reviews, read from the data store here
 * (in `astro dev`, from the content loader's last good read).
 */
import { getEntry } from 'astro:content';
import { contentInDev } from '../lib/content/live-content.ts';
import type { ModerationLog } from '../lib/reviews/schema.ts';
import { throwContentProblem } from './dataset.ts';

export async function getModerationLog(): Promise<ModerationLog> {
  throwContentProblem();
  const preview = contentInDev<{ moderation: ModerationLog }>();
  if (preview) return preview.moderation;
  const entry = await getEntry('moderation', 'moderation');
  if (!entry) throw new Error('the moderation collection is empty: the content layer did not run');
  return entry.data as unknown as ModerationLog;
}
