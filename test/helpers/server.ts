/**
 * Starts the real Node server (src/server.ts, as `npm start` runs it: with the
 * Node flags of package.json's serve script) on a free port over one of the
 * test builds, and stops it when the test is done.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUILDS, NODE, ROOT, TEST_BUILDS_DIR, type BuildName } from './builds.ts';
import { productionNodeFlags } from './serve-command.ts';

/**
 * The developer's own settings must not leak into a test server: a REDIS_URL,
 * an MCP secret or WebSub limits in the shell would change what is tested.
 */
const ISOLATED =
  /^(REDIS_|MCP_|WEBSUB_|REQUEST_BODY_|RESPONSE_BODY_|SEARCH_MISS_|STORE_DIR$|SITE_URL$|API_THROUGH_ASTRO$)/;

function inheritedEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !ISOLATED.test(name)));
}

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
  /** A command the server is run through (e.g. `setpriv --reuid=…` to run it as another user); it must exec the server. */
  prefix: string[] = [],
  /** Flags for Node itself, instead of production's (V8's heap sizes, which NODE_OPTIONS refuses); [] for Node's defaults. */
  nodeArgs: string[] = productionNodeFlags(ROOT),
): Promise<RunningServer> {
  const outDir = typeof build === 'string' ? BUILDS[build].outDir : build.outDir;
  if (!existsSync(resolve(outDir, 'server/entry.mjs'))) {
    throw new Error(
      `no build in ${outDir}: run \`npm test\` (it builds first) or \`node scripts/build-test-sites.ts\``,
    );
  }
  // Each server gets a fresh store of its own unless the test shares one on purpose (STORE_DIR or REDIS_URL).
  const ownStore =
    env.STORE_DIR === undefined && env.REDIS_URL === undefined
      ? mkdtempSync(join(TEST_BUILDS_DIR, 'store-'))
      : undefined;
  const command = [...prefix, NODE, ...nodeArgs, resolve(ROOT, 'src/server.ts')];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: {
      ...inheritedEnv(),
      ASTRO_OUT_DIR: outDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ASTRO_NODE_LOGGING: 'disabled',
      ...(ownStore ? { STORE_DIR: ownStore } : {}),
      ...env,
    },
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
        const done = () => {
          if (ownStore) rmSync(ownStore, { recursive: true, force: true });
          resolveStop();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}
