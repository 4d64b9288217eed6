/**
 * Starts the real Node server (src/server.ts, as `npm start` runs it) on a free
 * port over one of the test builds, and stops it when the test is done.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUILDS, NODE, ROOT, type BuildName } from './builds.ts';

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startServer(
  build: BuildName | { outDir: string },
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const outDir = typeof build === 'string' ? BUILDS[build].outDir : build.outDir;
  if (!existsSync(resolve(outDir, 'server/entry.mjs'))) {
    throw new Error(`no build in ${outDir}: run \`npm test\` (it builds first) or \`node scripts/build-test-sites.ts\``);
  }
  const child = spawn(NODE, [resolve(ROOT, 'src/server.ts')], {
    cwd: ROOT,
    env: { ...process.env, ASTRO_OUT_DIR: outDir, PORT: '0', HOST: '127.0.0.1', ASTRO_NODE_LOGGING: 'disabled', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 20 s:\n${output}`)), 20_000);
    const onData = () => {
      const match = /on http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolveStop) => {
        if (child.exitCode !== null) return resolveStop();
        child.once('exit', () => resolveStop());
        child.kill('SIGTERM');
      }),
  };
}
