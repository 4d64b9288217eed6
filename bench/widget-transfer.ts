/**
 * The widget's transfer floor: what one unfiltered widget downloads on a
 * first view (widget.js + /widget.json, brotli as the build makes them) stays
 * under 12 KB at 165, 10,000 and 100,000 reviews, side by side with the
 * baseline of reading /reviews.json instead; and widget.js stays within 8 KB
 * gzip. The bytes are made by the build's own functions (the bundle, the
 * dataset, the widget dataset, the static files' compression), from the
 * sample content and from scripts/generate-reviews.ts (seed 42).
 *
 *   node_modules/.bin/node bench/widget-transfer.ts
 *   node_modules/.bin/node bench/widget-transfer.ts --sizes 10000
 *
 * Exits 1 when a floor is missed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadContent } from '../src/lib/content/load.ts';
import { toJsonBody } from '../src/lib/http/json.ts';
import { buildDataset } from '../src/lib/reviews/published-dataset.ts';
import { brotli, gzip } from '../src/lib/static/compress.ts';
import { buildWidgetDataset } from '../src/lib/widget/dataset.ts';
import { bundleWidget } from '../src/widget/bundle.ts';

const TRANSFER_FLOOR = 12 * 1024;
const GZIP_FLOOR = 8 * 1024;
const ROOT = resolve(import.meta.dirname, '..');

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    'content-dir': { type: 'string', default: '/tmp/bench-widget-content' },
  },
});

function generated(count: number): string {
  // Keyed by the generator's own source: content left by an older generator is made afresh, not misread.
  const generator = createHash('sha256')
    .update(readFileSync(join(ROOT, 'scripts/generate-reviews.ts')))
    .digest('hex')
    .slice(0, 12);
  const dir = join(args['content-dir']!, `${count}-${generator}`);
  if (!existsSync(join(dir, 'business.yaml'))) {
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'scripts/generate-reviews.ts'),
        ...['--count', String(count), '--seed', '42', '--out', join(dir, 'reviews'), '--with-business'],
      ],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`generating ${count} reviews failed: ${run.stderr}`);
  }
  return dir;
}

const script = new TextEncoder().encode(await bundleWidget());
const scriptBr = brotli('/widget.js', script).length;
const scriptGz = gzip(script).length;
const rows: string[][] = [];
let failed = false;
const kb = (n: number) => (n / 1024).toFixed(1);

const contents: Array<[string, string]> = [['sample content', join(ROOT, 'content')]];
for (const size of args.sizes!.split(',').map(Number)) contents.push([`${size} generated`, generated(size)]);
for (const [name, dir] of contents) {
  const { business, reviews } = loadContent(dir);
  const dataset = buildDataset(business, reviews);
  const widgetJson = brotli('/widget.json', new TextEncoder().encode(toJsonBody(buildWidgetDataset(dataset)))).length;
  const reviewsJson = brotli('/reviews.json', new TextEncoder().encode(toJsonBody(dataset))).length;
  const total = scriptBr + widgetJson;
  const ok = total < TRANSFER_FLOOR;
  failed ||= !ok;
  rows.push([
    `${name} (${reviews.length})`,
    kb(scriptBr),
    kb(widgetJson),
    `${kb(total)}${ok ? '' : ' ✗'}`,
    kb(scriptBr + reviewsJson),
  ]);
}

console.log(`widget.js: ${script.length} bytes, ${scriptGz} gzip (floor ${GZIP_FLOOR}), ${scriptBr} brotli\n`);
console.log(
  '| reviews | widget.js br KB | widget.json br KB | widget total KB (floor < 12) | baseline: with reviews.json KB |',
);
console.log('| --- | --: | --: | --: | --: |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
if (scriptGz > GZIP_FLOOR) failed = true;
process.exit(failed ? 1 : 0);
