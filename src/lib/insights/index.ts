/** The insights pipeline: build-time aspect sentiment, entities, topics and the editorial FAQ and summary. */
export { analyseInsights, buildInsights, replySigners } from './build.ts';
export { EMPTY_EDITORIAL, loadEditorial } from './editorial.ts';
export { insightsDataset } from './schema.ts';
