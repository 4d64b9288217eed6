/**
 * Once its start-up work is done, the Node server runs one memory-reducing
 * collection (src/node/release-memory.ts), which needs `gc` exposed: the serve
 * script must pass --expose-gc (test servers and benchmarks read the same
 * flags), and under those flags the call must give garbage back to the system
 * (docs/performance.md, "Server memory after the load": 240 → 195 MB at 100k).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { NODE, ROOT } from '../helpers/builds.ts';
import { productionNodeFlags } from '../helpers/serve-command.ts';

test("under the serve script's flags, the start-up collection gives garbage back", () => {
  const flags = productionNodeFlags(ROOT);
  assert.ok(flags.includes('--expose-gc'), `no --expose-gc in the serve script's flags (${flags.join(' ')})`);
  const module = pathToFileURL(resolve(ROOT, 'src/node/release-memory.ts')).href;
  // Start-up's kind of garbage: many short records parsed and dropped, buffers read and dropped, then nothing to trigger a collection.
  const script = `import { releaseStartupGarbage } from ${JSON.stringify(module)};
let keep = [];
for (let i = 0; i < 400; i++) keep.push(new Uint8Array(256 * 1024).fill(1), JSON.parse('[' + ('{"a":"' + 'x'.repeat(200) + '"},').repeat(500) + '0]'));
keep = null;
const before = process.memoryUsage().rss;
releaseStartupGarbage();
console.log(JSON.stringify({ before, after: process.memoryUsage().rss }));`;
  const result = spawnSync(NODE, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const { before, after } = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { before: number; after: number };
  assert.ok(before - after > 50 * 2 ** 20, `RSS ${(before / 2 ** 20).toFixed(0)} → ${(after / 2 ** 20).toFixed(0)} MiB: less than 50 MiB given back`);
});
