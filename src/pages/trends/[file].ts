/** The numbers behind each chart of /trends as CSV files beside the page (src/lib/insights/trends-csv.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getInsights } from '../../route-services/insights.ts';
import { csvText, trendCsvs, type TrendCsv } from '../../lib/insights/trends-csv.ts';

export const prerender = true;

export const getStaticPaths = (async () =>
  trendCsvs((await getInsights()).trends).map((csv) => ({
    params: { file: csv.name },
    props: { csv },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ csv: TrendCsv }, { file: string }> = ({ props }) =>
  new Response(csvText(props.csv), { headers: { 'content-type': 'text/csv; charset=utf-8; header=present' } });
