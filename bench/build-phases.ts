/**
 * Where one `astro build` spends its CPU, by phase: the build's process CPU (user + system of
 * all its threads: the worker threads and libuv's pool included) read from /proc every
 * 250 ms, cut at the lines Astro logs when a phase starts. On a shared machine CPU is the
 * figure to read; wall time says how busy the machine was.
 *
 *   node bench/build-phases.ts --content /tmp/hscale/c100k
 *   node bench/build-phases.ts --content /tmp/hscale/c10k --out /tmp/phases-10k --env CONTENT_THREADS=1
 *
 * Phases: start-up (config, Vite's dependency scan) → content sync (the loader: files read,
 * validated and analysed on worker threads, the insights document, Astro's store) → Vite's
 * bundles → prerender (pages, datasets, feeds, sitemaps) → the static manifest (hashing,
 * compression: its log line says how long it took) → the rest. What is inside a phase needs
 * a profile (`--cpu-prof`, see docs/performance.md).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { linkNodeModules } from './lib/builds.ts';
import { NODE, ROOT } from './lib/processes.ts';

const { values: args } = parseArgs({
  options: {
    content: { type: 'string' },
    out: { type: 'string', default: '/tmp/bench-build-phases/dist' },
    env: { type: 'string', multiple: true, default: [] },
  },
});
if (!args.content) throw new Error('pass --content DIR (a content folder: business.yaml and reviews/)');
const out = resolve(args.out);
rmSync(out, { recursive: true, force: true });
rmSync(`${out}.cache`, { recursive: true, force: true });
mkdirSync(resolve(out, '..'), { recursive: true });
linkNodeModules(resolve(out, '..'));

const extraEnv = Object.fromEntries(args.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const env = { ...process.env, CONTENT_DIR: resolve(args.content), ASTRO_OUT_DIR: out, ASTRO_CACHE_DIR: `${out}.cache`, ASTRO_TELEMETRY_DISABLED: '1', ...extraEnv };
const started = performance.now();
const child = spawn(NODE, [resolve(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });

/** CPU seconds of the build process (all threads), from /proc/PID/stat (utime, stime in 10 ms ticks). */
const cpuOf = (pid: number): number | undefined => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
};
const samples: Array<{ at: number; cpu: number }> = [];
const sampler = setInterval(() => {
  const cpu = cpuOf(child.pid!);
  if (cpu !== undefined) samples.push({ at: performance.now(), cpu });
}, 250);

const marks: Array<{ phase: string; at: number }> = [{ phase: 'start-up (config, Vite dependencies)', at: started }];
const phases: Array<[string, RegExp]> = [
  ['content sync (read, validate, analyse; insights document; store)', /\[content\] Syncing content/],
  ['types and build info', /\[content\] Synced content/],
  ["Vite's bundles (server, prerender)", /Building server entrypoints/],
  ['prerender (pages, datasets, feeds, sitemaps)', /prerendering static routes/],
  ['after the prerender (server assets, adapter)', /✓ Completed in (\d+m )?[\d.]+s\.\s*$/],
];
let log = '';
let pending = '';
let nextPhase = 0;
const onData = (chunk: Buffer) => {
  const at = performance.now();
  log += chunk.toString();
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop()!;
  for (const line of lines) {
    const next = phases[nextPhase];
    if (next && next[1].test(line)) {
      marks.push({ phase: next[0], at });
      nextPhase += 1;
    }
    // Logged when the manifest is written, with its own duration: its phase started that long before.
    const manifest = /static manifest: .* in (\d+) ms/.exec(line);
    if (manifest) marks.push({ phase: 'static manifest (hashing, compression)', at: at - Number(manifest[1]) });
  }
};
child.stdout.on('data', onData);
child.stderr.on('data', onData);
const code: number = await new Promise((done) => child.on('close', done));
clearInterval(sampler);
if (code !== 0) throw new Error(`astro build failed (exit ${code}):\n${log.slice(-4000)}`);
const ended = performance.now();
marks.sort((a, b) => a.at - b.at);
const cpuAt = (at: number) => samples.filter((s) => s.at <= at).at(-1)?.cpu ?? 0;
const total = samples.at(-1)?.cpu ?? 0;

console.log(`${args.content}: build ${((ended - started) / 1000).toFixed(1)} s wall, ${total.toFixed(1)} s CPU (sampled every 250 ms)`);
console.log('| phase | wall s | CPU s | share of CPU |');
console.log('| --- | ---: | ---: | ---: |');
for (const [i, mark] of marks.entries()) {
  const end = marks[i + 1]?.at ?? ended;
  const cpu = (i + 1 < marks.length ? cpuAt(end) : total) - (i === 0 ? 0 : cpuAt(mark.at));
  console.log(`| ${mark.phase} | ${((end - mark.at) / 1000).toFixed(1)} | ${cpu.toFixed(1)} | ${((100 * cpu) / total).toFixed(1)}% |`);
}
