/** Helpers of the MCP tests: raw JSON-RPC over fetch, temporary stores, a throwaway Redis. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';

export const ACCEPT = 'application/json, text/event-stream';
export const JSON_HEADERS = { 'content-type': 'application/json', accept: ACCEPT };

export interface RpcReply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RpcReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function initializeRequest(protocolVersion = '2025-06-18', id: number | string = 1) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
  };
}

/** Initializes and returns the session id (and the reply). */
export async function initialize(url: string, protocolVersion = '2025-06-18', headers: Record<string, string> = {}) {
  const reply = await post(url, initializeRequest(protocolVersion), headers);
  if (reply.status !== 200) throw new Error(`initialize answered ${reply.status}: ${reply.text}`);
  const sessionId = reply.headers.get('mcp-session-id');
  if (!sessionId) throw new Error('initialize answered no Mcp-Session-Id');
  return { sessionId, reply };
}

export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** `redis-server` on a free port with no persistence; `stop()` kills exactly that process. */
export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 10 s:\n${output}`)), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not start (apt-get install redis-server): ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
    const onData = () => {
      if (/Ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The built server twice over one store (so one session key: a session opened
 * on one is served on the other), for the test file's hooks: `astro` with
 * API_THROUGH_ASTRO=true (/mcp through Astro's route), `direct` the default
 * Node path. Started before the file's tests, stopped after them.
 */
export function astroAndDirectServers(prefix: string): { astro: RunningServer; direct: RunningServer } {
  const servers = {} as { astro: RunningServer; direct: RunningServer };
  const store = tempDir(prefix);
  before(async () => {
    [servers.astro, servers.direct] = await Promise.all([
      startServer('content', { STORE_DIR: store.path, API_THROUGH_ASTRO: 'true' }),
      startServer('content', { STORE_DIR: store.path }),
    ]);
  });
  after(async () => {
    await Promise.all([servers.astro?.stop(), servers.direct?.stop()]);
    store.remove();
  });
  return servers;
}
