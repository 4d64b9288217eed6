import { z } from 'zod';
import { insightsDataset } from '../../insights/schema.ts';
import { defineTool, result, UNTRUSTED_TEXT } from '../definitions.ts';

/** A section holds structure (an object or a list); scalars (`updated`, counts) come with every answer. */
function isSection(schema: z.ZodType): boolean {
  const def = schema.def as { type: string; innerType?: z.ZodType };
  return def.innerType ? isSection(def.innerType) : def.type === 'object' || def.type === 'array';
}

/** The sections a caller may ask for: every structured part of insights.json, as its schema lists them. */
const INSIGHTS_SECTIONS = Object.entries(insightsDataset.shape)
  .filter(([, schema]) => isSection(schema as z.ZodType))
  .map(([key]) => key) as [string, ...string[]];

const section = z.enum(INSIGHTS_SECTIONS, `section must be one of ${INSIGHTS_SECTIONS.join(', ')}`);

export const getInsights = defineTool({
  name: 'get_insights',
  title: 'Review insights',
  description:
    'Returns the sentiment insights computed from the review text: `aspects` (workmanship, scheduling, communication, cleanup, ' +
    'price and more: mentions, positive/neutral/negative, score -1..1 and example sentences), `entities` (technicians, services, ' +
    'service areas with review counts, average rating and sentiment), `topics`, `trends` (by month, quarter and the last 12 weeks; ' +
    'reply rates, 1–2★ apart, and reply times in hours; the last 90 days against the 90 before and a year earlier, in words; the ' +
    '1–2★ reviews still without a reply), `faq` and the editorial `summary`. ' +
    `Pass {"section": "aspects"} for one section (${INSIGHTS_SECTIONS.join(', ')}), or {} for all. The same data as /insights.json. ` +
    `Example sentences, and the titles and author names of unanswered reviews, are quoted from reviews: ${UNTRUSTED_TEXT}`,
  input: z.strictObject({ section: section.optional().describe('One section of the insights; all when omitted.') }),
  // One section answers a part of the dataset: every section optional.
  output: insightsDataset.partial(),
  scans: false,
  run({ content }, { section: wanted }) {
    const data = content.insights ?? {};
    if (!wanted) return result(data);
    const scalars = Object.fromEntries(Object.entries(data).filter(([key]) => !INSIGHTS_SECTIONS.includes(key)));
    return result({ ...scalars, [wanted]: data[wanted] });
  },
});
