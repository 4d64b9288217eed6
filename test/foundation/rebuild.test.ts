/**
 * Same content in, same bytes out: a second build of the sample content gives
 * byte-identical files and manifest, so ETags stay and no WebSub notification
 * goes out for a rebuild without changes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, it } from 'node:test';
import { ASTRO_BIN, BUILDS, buildEnv, NODE, ROOT, TEST_BUILDS_DIR } from '../helpers/builds.ts';

// Inside the project: the server bundle resolves its packages from node_modules above it.
const work = mkdtempSync(join(TEST_BUILDS_DIR, 'rebuild-'));
after(() => rmSync(work, { recursive: true, force: true }));

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

it('a rebuild of the same content writes byte-identical static files', () => {
  const outDir = join(work, 'dist');
  const result = spawnSync(NODE, [ASTRO_BIN, 'build'], {
    cwd: ROOT,
    env: buildEnv(BUILDS.content.contentDir, outDir),
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  const before = join(BUILDS.content.outDir, 'client');
  const now = join(outDir, 'client');
  const files = listFiles(before);
  assert.deepEqual(listFiles(now), files);
  for (const file of ['reviews.json', 'api/feed.json', 'feed.xml', 'index.html', 'static-manifest.json']) {
    assert.ok(files.includes(file), `${file} is built`);
  }
  for (const file of files) {
    assert.ok(
      readFileSync(join(before, file)).equals(readFileSync(join(now, file))),
      `${file} differs between two builds of the same content`,
    );
  }
});
