/**
 * business.yaml's technician_ratings: `private` keeps each technician's
 * rating and sentiment out of insights.json (and so off the home page and out
 * of MCP's get_insights, which serve that document), while the reviews still
 * name their technicians.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { loadContent } from '../../src/lib/content/load.ts';
import { buildInsights, EMPTY_EDITORIAL, insightsDataset } from '../../src/lib/insights/index.ts';
import { business as businessSchema } from '../../src/lib/reviews/schema.ts';
import { buildDataset } from '../../src/lib/reviews/published-dataset.ts';
import { ROOT } from '../helpers/builds.ts';

const content = loadContent(resolve(ROOT, 'test/fixtures/content-small'));

describe('technician_ratings in business.yaml', () => {
  it('public (or absent): insights.json rates each technician', () => {
    const insights = buildInsights(buildDataset(content.business, content.reviews), EMPTY_EDITORIAL, () => {});
    assert.ok(insights.entities.technicians.length > 0);
  });

  it('private: insights.json has no technician entity, the document stays valid, reviews still name technicians', () => {
    const business = businessSchema.parse({ ...content.business, technician_ratings: 'private' });
    const dataset = buildDataset(business, content.reviews);
    const insights = buildInsights(dataset, EMPTY_EDITORIAL, () => {});
    assert.deepEqual(insights.entities.technicians, []);
    assert.ok(insights.entities.services.length > 0, 'services are still rated');
    assert.ok(insightsDataset.safeParse(insights).success);
    assert.ok(dataset.reviews.some((r) => r.technicians.length > 0));
  });

  it('a value other than public or private is refused, naming the field', () => {
    const parsed = businessSchema.safeParse({ ...content.business, technician_ratings: 'hidden' });
    assert.equal(parsed.success, false);
    assert.deepEqual(parsed.error?.issues[0]?.path, ['technician_ratings']);
  });
});
