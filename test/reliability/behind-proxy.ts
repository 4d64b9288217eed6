/**
 * Servers for the tests of the limit on never-seen searches: TRUST_PROXY=loopback, so a test
 * names its client in X-Forwarded-For as a proxy in front would send it. Each server is stopped
 * after the file's tests.
 */
import { after } from 'node:test';
import type { BuildName } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

export const FLOODER = '203.0.113.66';
export const OTHER = '198.51.100.9';

const running: RunningServer[] = [];
after(() => Promise.all(running.map((server) => server.stop())));

export async function startBehindProxy(build: BuildName, env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer(build, { TRUST_PROXY: 'loopback', ...env });
  running.push(server);
  return server;
}

export const asClient = (address: string) => ({ 'x-forwarded-for': address });
