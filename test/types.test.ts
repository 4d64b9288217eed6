/**
 * Types are checked, not only stripped: `astro check` must report no error.
 * It type-checks every file tsconfig.json includes (.astro, .ts and .mts: tests,
 * scripts, bench and netlify/ too), so a separate `tsc --noEmit` would only
 * repeat it. Run as a test so it overlaps the others.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { it } from 'node:test';
import { ASTRO_BIN, NODE, ROOT } from './helpers/builds.ts';

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(NODE, args, {
      cwd: ROOT,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => resolveRun({ code, output }));
  });
}

it('astro check reports no error', { timeout: 240_000 }, async () => {
  const { code, output } = await run([ASTRO_BIN, 'check']);
  assert.equal(code, 0, output);
  assert.match(output, /- 0 errors/);
});
