/**
 * The repository's GitHub Actions workflows against the published GitHub
 * workflow schema (@action-validator/cli, offline), and what each must do.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { NODE, ROOT } from '../helpers/builds.ts';

const VALIDATOR = join(ROOT, 'node_modules/@action-validator/cli/cli.mjs');
const WORKFLOWS = join(ROOT, '.github/workflows');

async function validate(file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(NODE, [VALIDATOR, file], { encoding: 'utf8' });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

it('every workflow passes the published schema; a misspelt key does not', async () => {
  for (const name of ['import-google.yml', 'ci.yml']) {
    const result = await validate(join(WORKFLOWS, name));
    assert.equal(result.code, 0, `${name}: ${result.output}`);
  }
  // The check can fail: the same file with "steps" misspelt.
  const dir = mkdtempSync(join(tmpdir(), 'workflows-'));
  const broken = join(dir, 'broken.yml');
  writeFileSync(broken, readFileSync(join(WORKFLOWS, 'import-google.yml'), 'utf8').replace('    steps:', '    stepz:'));
  const result = await validate(broken);
  rmSync(dir, { recursive: true, force: true });
  assert.notEqual(result.code, 0, result.output);
});

it('the import runs daily and by hand: npm ci, then the routine with the secrets; it may commit and open pull requests', () => {
  const workflow = parse(readFileSync(join(WORKFLOWS, 'import-google.yml'), 'utf8'));
  assert.match(workflow.on.schedule[0].cron, /^\d+ \d+ \* \* \*$/);
  assert.ok('workflow_dispatch' in workflow.on);
  assert.deepEqual(workflow.permissions, { contents: 'write', 'pull-requests': 'write' });
  const steps = workflow.jobs.import.steps as Array<{ run?: string; env?: Record<string, string> }>;
  const runs = steps.map((s) => s.run).filter(Boolean);
  assert.deepEqual(runs, ['npm ci --no-audit --no-fund', 'node scripts/import-and-commit.ts']);
  const env = steps.at(-1)!.env!;
  for (const secret of ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_REFRESH_TOKEN'])
    assert.equal(env[secret], `\${{ secrets.${secret} }}`);
  assert.equal(env.GITHUB_TOKEN, '${{ secrets.GITHUB_TOKEN }}');
  assert.match(env.IMPORT_PUBLISH!, /vars\.IMPORT_PUBLISH/);
});

it("the repository's CI runs .ci/run on pushes and pull requests", () => {
  const workflow = parse(readFileSync(join(WORKFLOWS, 'ci.yml'), 'utf8'));
  assert.ok('push' in workflow.on && 'pull_request' in workflow.on);
  const runs = (workflow.jobs.test.steps as Array<{ run?: string }>).map((s) => s.run);
  assert.equal(runs.at(-1), 'bash .ci/run');
});
