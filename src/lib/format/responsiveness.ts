/**
 * The owner's responsiveness in words, from the trends' recent window of
 * insights.json: "Replies to 85% of reviews, usually within 3 days". Nothing
 * when the window has no reviews.
 */
import type { RecentWindow } from '../insights/schema.ts';

export function responsivenessText(window: RecentWindow | undefined): string | undefined {
  if (!window || window.reply_rate === null) return undefined;
  const rate = `Replies to ${Math.round(window.reply_rate * 100)}% of reviews`;
  if (window.median_reply_days === null) return rate;
  const days = Math.round(window.median_reply_days);
  return `${rate}, usually within ${days === 0 ? 'a day' : days === 1 ? '1 day' : `${days} days`}`;
}
