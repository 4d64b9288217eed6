/**
 * A large content folder is read on worker threads (src/lib/build/parallel-load.ts):
 * the same reviews, the same insights and the same problems, in the same order,
 * as the read in one thread. Workers are forced here on small fixtures.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadContent } from '../../src/lib/content/load.ts';
import { contentThreads, loadContentWithInsights } from '../../src/lib/build/parallel-load.ts';
import { ContentError } from '../../src/lib/content/problems.ts';
import { buildInsights, loadEditorial } from '../../src/lib/insights/index.ts';
import { buildDataset } from '../../src/lib/reviews/published-dataset.ts';
import { ROOT } from '../helpers/builds.ts';

const fixture = (name: string) => join(ROOT, 'test/fixtures', name);

async function problemsOf(read: () => unknown): Promise<string> {
  try {
    await read();
  } catch (error) {
    assert.ok(error instanceof ContentError, String(error));
    return error.message;
  }
  assert.fail('no problem reported');
}

describe('reading content on worker threads', () => {
  it('gives the reviews and insights of the read in one thread', async () => {
    const dir = fixture('content-small');
    const { content, insightOf } = await loadContentWithInsights(dir, 2, 1);
    const alone = loadContent(dir);
    assert.deepEqual(content, alone);
    assert.ok(insightOf(alone.reviews[0].id), 'the workers analysed the reviews');
    const editorial = loadEditorial(dir);
    const threaded = buildInsights(buildDataset(content.business, content.reviews), editorial, () => {}, insightOf);
    const inProcess = buildInsights(buildDataset(alone.business, alone.reviews), editorial, () => {});
    assert.equal(JSON.stringify(threaded), JSON.stringify(inProcess));
  });

  it('reports every mistake with its file and field, in file order, as the read in one thread does', async () => {
    const dir = fixture('content-mistakes');
    const threaded = await problemsOf(() => loadContentWithInsights(dir, 2, 1));
    assert.equal(threaded, await problemsOf(() => loadContent(dir)));
    assert.match(threaded, /reviews\//);
  });

  it('CONTENT_THREADS sets the threads; anything but a whole number ≥ 1 is refused', () => {
    assert.equal(contentThreads({}, 2), 2);
    assert.equal(contentThreads({}, 64), 8);
    assert.equal(contentThreads({ CONTENT_THREADS: '1' }, 4), 1);
    assert.throws(() => contentThreads({ CONTENT_THREADS: '0' }), /CONTENT_THREADS/);
    assert.throws(() => contentThreads({ CONTENT_THREADS: 'two' }), /CONTENT_THREADS/);
  });
});
