/**
 * `npm run reliability`: runs every scenario in bench/reliability/ (each
 * `*.ts` here but this runner; helpers live in lib/), one after another so
 * they never share the machine, and reports pass/fail per scenario. A
 * scenario passes when it exits 0 (its must-holds held); the runner exits 1
 * when any failed. Names given as arguments run only those scenarios:
 *
 *   node_modules/.bin/node bench/reliability/run.ts [mixed-load fuzz ...]
 *
 * The scenarios use the test builds in .test-builds/ (scripts/build-test-sites.ts)
 * and need redis-server/redis-cli and openssl on the PATH. See docs/reliability.md.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';

const here = import.meta.dirname;
const all = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && entry.name !== basename(import.meta.filename))
  .map((entry) => entry.name.replace(/\.ts$/, ''))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !all.includes(name));
if (unknown.length > 0) {
  console.error(`no scenario ${unknown.join(', ')} in bench/reliability/ (there are: ${all.join(', ')})`);
  process.exit(2);
}
const scenarios = wanted.length > 0 ? all.filter((name) => wanted.includes(name)) : all;

function run(name: string): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [resolve(here, `${name}.ts`)], { stdio: 'inherit' });
    child.once('exit', (code, signal) => resolveRun({ code, signal }));
  });
}

const results: Array<{ name: string; outcome: string; seconds: number }> = [];
const started = performance.now();
for (const name of scenarios) {
  console.log(`\n=== ${name} ===`);
  const begun = performance.now();
  const { code, signal } = await run(name);
  const outcome =
    code === 0
      ? 'pass'
      : signal
        ? `FAIL (killed by ${signal})`
        : code === 2
          ? 'FAIL (could not run: exit 2)'
          : `FAIL (exit ${code})`;
  results.push({ name, outcome, seconds: (performance.now() - begun) / 1000 });
}

console.log('\n| scenario | result | time |\n|---|---|---|');
for (const { name, outcome, seconds } of results) console.log(`| ${name} | ${outcome} | ${seconds.toFixed(0)} s |`);
const failed = results.filter((result) => result.outcome !== 'pass');
console.log(
  `\n${results.length - failed.length} of ${results.length} scenarios passed in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
