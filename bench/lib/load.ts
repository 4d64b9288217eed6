/**
 * The load generator: N keep-alive connections (node:http, one Agent with
 * maxSockets N), each a closed loop that sends the next URL of a fixed list as
 * soon as the previous answer's body has been read, for a fixed duration after
 * a warm-up. Latency (request start to last body byte) goes into a histogram
 * (./histogram.ts) whose buckets are returned, so runs merge exactly.
 *
 * Given the server's pid, it also reads that process's CPU time (/proc, all
 * threads) at the start and end of the measured window: server CPU per
 * request does not depend on whether the load generator or the server ran out
 * of CPU first, which req/s alone does on a small machine.
 *
 * Run it in its own process, so it never shares an event loop with the server:
 * `node bench/lib/load.ts '<LoadOptions as JSON>'` prints one LoadRun as JSON.
 * runLoadInChild() does exactly that.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { type Buckets, LatencyHistogram } from './histogram.ts';

export interface LoadOptions {
  /** http://host:port, no trailing slash. */
  origin: string;
  /** Paths with query, cycled over all connections. */
  paths: string[];
  /** Or a JSON file of them: lists too long for a command line (a new query on every request). */
  pathsFile?: string;
  connections: number;
  /** Measured seconds. */
  duration: number;
  /** Seconds of the same load before measuring (JIT, sockets, caches). */
  warmup: number;
  /** The server's pid, for its CPU time (Linux /proc). */
  serverPid?: number;
  /** Another method than GET, with the same headers and body on every request (MCP's POST /mcp). */
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** One measured window, in mergeable form. */
export interface LoadRun {
  seconds: number;
  requests: number;
  bytes: number;
  non200: number;
  errors: number;
  statuses: Record<string, number>;
  buckets: Buckets;
  latencySumUs: number;
  latencyMaxUs: number;
  /** Server CPU seconds (user + system, all threads) in the window; null without serverPid. */
  serverCpuSeconds: number | null;
  /** This load generator's own CPU seconds in the window. */
  loaderCpuSeconds: number;
  /** CPU seconds the whole machine was busy in the window (/proc/stat), and its CPU count. */
  machineBusySeconds: number | null;
}

async function runLoad(options: LoadOptions): Promise<LoadRun> {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: options.connections,
    maxFreeSockets: options.connections,
    scheduling: 'fifo',
  });
  const url = new URL(options.origin);
  const histogram = new LatencyHistogram();
  let measuring = false;
  let stopped = false;
  let next = 0;
  let requests = 0;
  let bytes = 0;
  let non200 = 0;
  let errors = 0;
  const statuses: Record<string, number> = {};

  const once = (path: string) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = request(
        { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers, agent },
        (res) => {
          let size = 0;
          res.on('data', (chunk: Buffer) => (size += chunk.length));
          res.on('end', () => {
            if (measuring) {
              histogram.record((performance.now() - started) * 1000);
              requests += 1;
              bytes += size;
              const status = String(res.statusCode);
              statuses[status] = (statuses[status] ?? 0) + 1;
              if (res.statusCode !== 200) non200 += 1;
            }
            resolve();
          });
          res.on('error', () => {
            if (measuring) errors += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        if (measuring) errors += 1;
        resolve();
      });
      req.end(options.body);
    });

  const loop = async (first: number) => {
    let path = options.paths[first % options.paths.length] as string;
    while (!stopped) {
      await once(path);
      path = options.paths[next++ % options.paths.length] as string;
    }
  };

  if (options.pathsFile) options.paths = JSON.parse(readFileSync(options.pathsFile, 'utf8')) as string[];
  const loops = Array.from({ length: options.connections }, (_, c) => loop(c));
  await sleep(options.warmup * 1000);
  const serverCpuStart = options.serverPid ? cpuSecondsOf(options.serverPid) : null;
  const machineStart = machineBusy();
  const loaderStart = process.cpuUsage();
  const measureStart = performance.now();
  measuring = true;
  await sleep(options.duration * 1000);
  measuring = false;
  const seconds = (performance.now() - measureStart) / 1000;
  const loader = process.cpuUsage(loaderStart);
  const machineEnd = machineBusy();
  const serverCpuEnd = options.serverPid ? cpuSecondsOf(options.serverPid) : null;
  stopped = true;
  await Promise.all(loops);
  agent.destroy();

  return {
    seconds,
    requests,
    bytes,
    non200,
    errors,
    statuses,
    buckets: histogram.toBuckets(),
    latencySumUs: histogram.mean * histogram.count,
    latencyMaxUs: histogram.max,
    serverCpuSeconds: serverCpuStart === null || serverCpuEnd === null ? null : serverCpuEnd - serverCpuStart,
    loaderCpuSeconds: (loader.user + loader.system) / 1e6,
    machineBusySeconds: machineStart === null || machineEnd === null ? null : machineEnd - machineStart,
  };
}

/** Runs the generator in a child process (same Node binary) and returns its run. */
export function runLoadInChild(options: LoadOptions): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [import.meta.filename, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      try {
        resolve(JSON.parse(out) as LoadRun);
      } catch (error) {
        reject(new Error(`load generator printed no result: ${out}`, { cause: error }));
      }
    });
  });
}

/** Several runs against the same server, merged: rates over the summed time, percentiles over all latencies. */
export interface LoadSummary {
  seconds: number;
  requests: number;
  rps: number;
  bytesPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  non200: number;
  errors: number;
  statuses: Record<string, number>;
  /** Server CPU microseconds per request (null without /proc). */
  serverCpuUsPerRequest: number | null;
  /** Share of the window's machine CPU used by neither the server nor the load generator (other processes), 0..1. */
  foreignCpuShare: number | null;
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

export function summarize(runs: LoadRun[], cpus: number): LoadSummary {
  const histogram = new LatencyHistogram();
  const statuses: Record<string, number> = {};
  let seconds = 0;
  let requests = 0;
  let bytes = 0;
  let non200 = 0;
  let errors = 0;
  let serverCpu: number | null = 0;
  let foreign: number | null = 0;
  for (const run of runs) {
    histogram.merge(run.buckets, run.latencySumUs, run.latencyMaxUs);
    for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
    seconds += run.seconds;
    requests += run.requests;
    bytes += run.bytes;
    non200 += run.non200;
    errors += run.errors;
    serverCpu = serverCpu === null || run.serverCpuSeconds === null ? null : serverCpu + run.serverCpuSeconds;
    foreign =
      foreign === null || run.machineBusySeconds === null || run.serverCpuSeconds === null
        ? null
        : foreign + Math.max(0, run.machineBusySeconds - run.serverCpuSeconds - run.loaderCpuSeconds);
  }
  const ms = (us: number) => us / 1000;
  return {
    seconds,
    requests,
    rps: requests / seconds,
    bytesPerSecond: bytes / seconds,
    p50: ms(histogram.percentile(50)),
    p90: ms(histogram.percentile(90)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
    mean: ms(histogram.mean),
    non200,
    errors,
    statuses,
    serverCpuUsPerRequest: serverCpu === null || requests === 0 ? null : (serverCpu * 1e6) / requests,
    foreignCpuShare: foreign === null ? null : foreign / (seconds * cpus),
  };
}

/** utime + stime of a process (all its threads), in seconds. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Busy CPU seconds of the whole machine since boot (all CPUs; idle and iowait excluded). */
function machineBusy(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] as string;
    const [, ...ticks] = line.trim().split(/\s+/).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = ticks as number[];
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

if (import.meta.main) {
  const options = JSON.parse(process.argv[2] ?? '') as LoadOptions;
  process.stdout.write(`${JSON.stringify(await runLoad(options))}\n`);
}
