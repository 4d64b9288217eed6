/**
 * Server processes for the benchmark: spawn one (the real src/server.ts over a
 * build, or the bare baseline), wait for its "on http://HOST:PORT" line, read
 * its resident memory from /proc, stop it. Same conventions as
 * test/helpers/server.ts: PORT=0, HOST=127.0.0.1, ASTRO_OUT_DIR.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { serveArgs } from '../../test/helpers/serve-command.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const NODE = process.execPath;

export interface Running {
  origin: string;
  process: ChildProcess;
  /** Milliseconds from spawn to the "on http://" line. */
  listeningMs: number;
  /** When spawn was called (performance.now()). */
  spawnedAt: number;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `cpus` (a taskset list such as "1") keeps the process, all its threads, on
 * those CPUs: taskset execs Node, so the pid is still the server's.
 */
export function startProcess(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
  cpus?: string,
): Promise<Running> {
  const spawnedAt = performance.now();
  const [command, commandArgs] = cpus ? ['taskset', ['-c', cpus, NODE, ...args]] : [NODE, args];
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const stop = () =>
    new Promise<void>((resolveStop) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
      child.once('exit', () => resolveStop());
      child.kill('SIGTERM');
    });
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${args.join(' ')} did not listen in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = () => {
      const match = /on (http:\/\/[^\s]+:\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.removeListener('exit', onExit);
      resolveStart({
        origin: match[1] as string,
        process: child,
        listeningMs: performance.now() - spawnedAt,
        spawnedAt,
        output: () => output,
        stop,
      });
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code} before listening:\n${output}`));
    };
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

/** The real server (src/server.ts of this checkout, or of `root`, with that checkout's production Node flags) over a build, quiet. */
export function startRealServer(
  distDir: string,
  root = ROOT,
  env: Record<string, string> = {},
  cpus?: string,
): Promise<Running> {
  return startProcess(
    serveArgs(root),
    { ASTRO_OUT_DIR: distDir, PORT: '0', HOST: '127.0.0.1', ASTRO_NODE_LOGGING: 'disabled', ...env },
    undefined,
    cpus,
  );
}

export function startBareServer(captureFile: string, cpus?: string): Promise<Running> {
  return startProcess([resolve(import.meta.dirname, 'bare-server.ts'), captureFile], {}, undefined, cpus);
}

/** Resident set size now and its peak (VmHWM), in bytes, from /proc (Linux). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

export interface Fetched {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

/** One GET on a fresh connection (no agent), body read whole. */
export function get(origin: string, path: string, headers: Record<string, string> = {}): Promise<Fetched> {
  return new Promise((resolveGet, reject) => {
    const req = request(`${origin}${path}`, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolveGet({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
