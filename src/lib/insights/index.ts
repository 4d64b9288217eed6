/** The insights pipeline: build-time aspect sentiment, entities, topics and the editorial FAQ and summary. */
export {
  analyseInsights,
  buildInsights,
  formatWarnings,
  replySigners,
  type InsightsResult,
  type InsightsWarning,
  type NameCheck,
} from './build.ts';
export { EMPTY_EDITORIAL, loadEditorial, type Editorial } from './editorial.ts';
export { insightsDataset, type InsightsDataset } from './schema.ts';
