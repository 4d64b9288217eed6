/** Pieces of the reliability tests: a redis-server on a chosen port (so it can come back on the same one), timing. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LocalRedis {
  url: string;
  port: number;
  cli(...args: string[]): string;
  /** SIGKILL, as a crash would: no goodbye to the clients. */
  kill(): Promise<void>;
}

/** `redis-server` on `port`, no persistence (a restart loses everything, as the scenario). */
export async function startRedisOn(port: number): Promise<LocalRedis> {
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const cli = (...args: string[]) =>
    spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim();
  for (let i = 0; ; i++) {
    if (cli('ping') === 'PONG') break;
    if (i > 200 || child.exitCode !== null) throw new Error(`redis-server did not start on ${port}`);
    await sleep(25);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    cli,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** Runs `step` and how long it took, in ms. */
export async function timed<T>(step: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await step();
  return { value, ms: Math.round(performance.now() - start) };
}

/** Retries `step` until `ok` or `timeoutMs` pass; the last value either way. */
export async function until<T>(
  step: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs: number,
): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  for (;;) {
    const value = await step();
    if (ok(value) || performance.now() - start > timeoutMs) return { value, ms: Math.round(performance.now() - start) };
    await sleep(100);
  }
}
