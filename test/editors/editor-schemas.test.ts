/**
 * Help in a text editor: the JSON Schemas VS Code uses (.vscode/schemas/) are
 * the ones the zod schemas and business.yaml give, every real review passes
 * them, and remark (what VS Code's remark extension runs, through the
 * repository's .remarkrc.mjs) underlines a wrong rating, an unknown technician
 * and an unknown field before any build.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { EDITOR_SCHEMA_FILES, editorSchemaFiles } from '../../src/lib/content/editor-schema-files.ts';
import { NODE, ROOT, TEST_BUILDS_DIR } from '../helpers/builds.ts';

const REMARK = join(ROOT, 'node_modules/remark-cli/cli.js');
mkdirSync(TEST_BUILDS_DIR, { recursive: true });
const work = mkdtempSync(join(TEST_BUILDS_DIR, 'editor-schemas-'));
after(() => rmSync(work, { recursive: true, force: true }));

function remark(cwd: string, target: string) {
  const result = spawnSync(NODE, [REMARK, target, '--quiet', '--frail', '--no-color', '--no-stdout'], {
    cwd,
    encoding: 'utf8',
  });
  return { status: result.status, report: result.stderr };
}

it('the committed schemas are what the zod schemas and content/business.yaml give', () => {
  const expected = editorSchemaFiles(join(ROOT, 'content'));
  for (const [name, file] of Object.entries(EDITOR_SCHEMA_FILES) as Array<[keyof typeof EDITOR_SCHEMA_FILES, string]>) {
    assert.equal(
      readFileSync(join(ROOT, file), 'utf8'),
      expected[name],
      `${file} is stale: run npm run dev or npm run build`,
    );
  }
  const review = JSON.parse(expected.review);
  assert.ok(
    review.properties.technicians.items.enum.includes('Maria Santos'),
    'technicians offered from business.yaml',
  );
  assert.ok(review.properties.services.items.enum.includes('roof-repair'), 'services offered from business.yaml');
  assert.deepEqual(review.required.sort(), ['author', 'date', 'rating', 'services', 'source', 'verified']);
});

it('every review in content/ passes the schema as VS Code checks it', () => {
  const { status, report } = remark(ROOT, 'content/reviews');
  assert.equal(status, 0, report);
});

it('a wrong rating, an unknown technician and an unknown field are flagged with their line', () => {
  // A project-shaped folder inside the repository, so .remarkrc.mjs resolves its plugins.
  const project = join(work, 'project');
  mkdirSync(join(project, 'content/reviews'), { recursive: true });
  cpSync(join(ROOT, '.remarkrc.mjs'), join(project, '.remarkrc.mjs'));
  cpSync(join(ROOT, '.vscode'), join(project, '.vscode'), { recursive: true });
  writeFileSync(
    join(project, 'content/reviews/2026-01-02-bad.md'),
    '---\ndate: 2026-01-02\nrating: 6\nauthor: Pat R.\ntechnicians: [Bobby Tables]\nservices: [roof-repair]\nsource: google\nverified: true\nstars: 4\n---\nText.\n',
  );
  writeFileSync(
    join(project, 'content/reviews/2026-01-03-good.md'),
    '---\ndate: 2026-01-03\nrating: 5\nauthor: Pat R.\nservices: [roof-repair]\nsource: google\nverified: true\nverification: { method: job, checked: 2026-01-03 }\n---\nText.\n',
  );
  const { status, report } = remark(project, 'content/reviews');
  assert.equal(status, 1, report);
  assert.match(report, /2026-01-02-bad\.md/);
  assert.match(report, /3:9-3:10\s+warning\s+Must be <= 5/);
  assert.match(report, /5:15-5:27\s+warning\s+Must be equal to one of the allowed values: `Dave Kowalski`/);
  assert.match(report, /Must NOT have additional properties/);
  assert.doesNotMatch(report, /2026-01-03-good\.md/);
});
