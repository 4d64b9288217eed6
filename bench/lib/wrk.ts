/**
 * Load from wrk (https://github.com/wg/wrk, `apt-get install wrk`): a C load
 * generator that spends a few µs per request, so on a 2-core machine the
 * server, not the load generator, runs out of CPU first and the rate shows
 * the server's per-request cost. A node:http client (./load.ts) costs more
 * per request than a bare server does answering, which hides the difference
 * between two servers.
 *
 * One run: `threads` wrk threads and `connections` keep-alive connections,
 * cycling over `paths` with the same request headers, for `duration` seconds.
 * A Lua script names the paths and headers and prints the summary as JSON.
 * The server's CPU time (all threads, /proc) is read around the run.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSecondsOf } from './load.ts';

export interface WrkOptions {
  origin: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  threads: number;
  /** Seconds. */
  duration: number;
  /** The server's pid, for its CPU time. */
  serverPid?: number;
  /** A taskset CPU list that wrk runs on (apart from the server's). */
  cpus?: string;
}

export interface WrkRun {
  seconds: number;
  requests: number;
  rps: number;
  /** Answers with a status of 400 or more, and socket errors (connect, read, write, timeout). */
  badStatus: number;
  errors: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Server CPU µs per request (null without /proc or pid). */
  serverCpuUsPerRequest: number | null;
}

/** Fails early, with what to do, when wrk is not installed. */
export async function checkWrk(): Promise<void> {
  try {
    await run(undefined, ['--version']);
  } catch (error) {
    // `wrk --version` prints its usage and exits 1: it is there.
    if ((error as { code?: unknown }).code === 'ENOENT')
      throw new Error('wrk is not installed: apt-get install wrk (or build it from https://github.com/wg/wrk)', {
        cause: error,
      });
  }
}

export async function runWrk(options: WrkOptions): Promise<WrkRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  const script = join(dir, 'run.lua');
  writeFileSync(script, luaScript(options.paths, options.headers));
  try {
    const cpuStart = options.serverPid ? cpuSecondsOf(options.serverPid) : null;
    const out = await run(options.cpus, [
      `-t${options.threads}`,
      `-c${options.connections}`,
      `-d${options.duration}s`,
      '--timeout',
      '10s',
      '-s',
      script,
      options.origin,
    ]);
    const cpuEnd = options.serverPid ? cpuSecondsOf(options.serverPid) : null;
    const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
    if (!line) throw new Error(`wrk printed no summary:\n${out}`);
    const summary = JSON.parse(line.slice('WRK_JSON '.length)) as {
      requests: number;
      durationUs: number;
      status: number;
      connect: number;
      read: number;
      write: number;
      timeout: number;
      p50: number;
      p99: number;
    };
    const seconds = summary.durationUs / 1e6;
    return {
      seconds,
      requests: summary.requests,
      rps: summary.requests / seconds,
      badStatus: summary.status,
      errors: summary.connect + summary.read + summary.write + summary.timeout,
      p50: summary.p50 / 1000,
      p99: summary.p99 / 1000,
      serverCpuUsPerRequest:
        cpuStart === null || cpuEnd === null || summary.requests === 0
          ? null
          : ((cpuEnd - cpuStart) * 1e6) / summary.requests,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Requests cycle over the paths (each thread from the first); the summary goes out as one JSON line. */
function luaScript(paths: string[], headers: Record<string, string>): string {
  const str = (value: string) => JSON.stringify(value); // a JSON string is a valid Lua string for ASCII
  return `
local paths = { ${paths.map(str).join(', ')} }
${Object.entries(headers)
  .map(([name, value]) => `wrk.headers[${str(name)}] = ${str(value)}`)
  .join('\n')}
local requests = {}
-- After wrk.init has set the Host header: a request without one is a 400 from node:http.
init = function(_)
  for i, path in ipairs(paths) do requests[i] = wrk.format("GET", path) end
end
local n = 0
request = function()
  n = n % #requests + 1
  return requests[n]
end
done = function(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

function run(cpus: string | undefined, args: string[]): Promise<string> {
  const [command, commandArgs] = cpus ? ['taskset', ['-c', cpus, 'wrk', ...args]] : ['wrk', args];
  return new Promise((resolve, reject) => {
    execFile(command, commandArgs, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { output: `${stdout}${stderr}` }));
      else resolve(stdout);
    });
  });
}
