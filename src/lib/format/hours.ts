/**
 * The business's opening hours as people read them ("Monday–Friday 07:00–17:00"),
 * from the lines of business.yaml. Runs of three or more days in a row are
 * written as a range; the times stay 24-hour, as the editors wrote them.
 */
import { DAYS_OF_WEEK, type Business } from '../reviews/schema.ts';

type OpeningHours = NonNullable<Business['opening_hours']>[number];

function displayDays(days: readonly OpeningHours['days'][number][]): string {
  const order = [...new Set(days)].map((day) => DAYS_OF_WEEK.indexOf(day)).sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const index of order) {
    const run = runs.at(-1);
    if (run && run.at(-1) === index - 1) run.push(index);
    else runs.push([index]);
  }
  return runs
    .flatMap((run) =>
      run.length >= 3
        ? [`${DAYS_OF_WEEK[run[0]!]}–${DAYS_OF_WEEK[run.at(-1)!]}`]
        : run.map((index) => DAYS_OF_WEEK[index]!),
    )
    .join(', ');
}

export function displayHours(hours: OpeningHours): string {
  return `${displayDays(hours.days)} ${hours.opens}–${hours.closes}`;
}
