/**
 * One since page asked again and again, one request at a time on one
 * keep-alive connection: the server's CPU per answer and the client's
 * latency. For the cost of answers not kept in the LRU (a page of 1,000
 * records is made again on every request, docs/performance.md).
 *
 *   node bench/since-repeat.ts --dist /tmp/bench-builds/100000/dist [--server-root DIR] [--requests 300] [--settle 15]
 *
 * Pages: since/1970-01-01 and since/2024-01-01 (both full pages at 100k reviews).
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { get, ROOT, startRealServer } from './lib/processes.ts';

const { values: args } = parseArgs({
  options: {
    dist: { type: 'string' },
    'server-root': { type: 'string' },
    requests: { type: 'string', default: '300' },
    settle: { type: 'string', default: '15' },
  },
});
if (!args.dist) throw new Error('--dist DIR: a build (dist/ with client/ and server/)');
const server = await startRealServer(resolve(args.dist), resolve(args['server-root'] ?? ROOT));
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const call = (path: string) =>
  new Promise<number>((done, fail) => {
    const start = performance.now();
    request(`${server.origin}${path}`, { agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => done(performance.now() - start));
      res.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
/** The server's user + system CPU time in ms, from /proc (Linux). */
const serverCpuMs = () => {
  const stat = readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(stat[11]) + Number(stat[12])) * 10;
};

try {
  // The text index's child build and start-up's collection are over before measuring.
  await new Promise((r) => setTimeout(r, Number(args.settle) * 1000));
  const n = Number(args.requests);
  for (const path of ['/api/reviews/since/1970-01-01', '/api/reviews/since/2024-01-01']) {
    const { count } = JSON.parse((await get(server.origin, path)).body.toString('utf8')) as { count: number };
    for (let i = 0; i < 20; i++) await call(path);
    const cpuBefore = serverCpuMs();
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(await call(path));
    const cpuUs = ((serverCpuMs() - cpuBefore) / n) * 1000;
    times.sort((a, b) => a - b);
    console.log(`${path} (${count} reviews): server CPU ${cpuUs.toFixed(0)} µs/req, latency p50 ${times[n >> 1]!.toFixed(2)} ms, p99 ${times[Math.floor(n * 0.99)]!.toFixed(2)} ms`);
  }
} finally {
  agent.destroy();
  await server.stop();
}
