/**
 * A WebSub subscriber of our own on node:https (certificate from certs.ts):
 * each callback path has a behaviour for verification GETs and one for
 * notification POSTs, changeable at any time, and every request is recorded.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCerts } from './certs.ts';

/** `slow`: echoes the challenge after 800 ms (work still running when the hub's caller moves on). */
export type VerifyBehaviour = 'echo' | 'slow' | 'wrong' | 'fail' | 'hang';
/** `late`: answers 204 after LATE_ANSWER_MS (30 s: well past the hub's deadline; bench/reliability's slow subscribers). */
export type NotifyBehaviour = 'ok' | 'fail' | 'hang' | 'late' | 'gone' | 'redirect';
export const LATE_ANSWER_MS = 30_000;

export interface Recorded {
  method: string;
  path: string;
  /** The request target exactly as sent (path and query). */
  rawUrl: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  at: number;
  /** For a request left hanging: when the hub gave up on it (its connection closed). */
  closedAt?: number;
}

export interface TestSubscriber {
  port: number;
  /** A callback URL on this subscriber (loopback, HTTPS). */
  url(path: string, query?: string): string;
  set(path: string, behaviour: { verify?: VerifyBehaviour; notify?: NotifyBehaviour }): void;
  requests(path?: string): Recorded[];
  verifications(path: string, mode?: string): Recorded[];
  notifications(path: string): Recorded[];
  /** Resolves once `predicate` holds for the recorded requests, or rejects after `timeoutMs`. */
  waitFor(predicate: (all: Recorded[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

export async function startSubscriber(certs: TestCerts, host = '127.0.0.1'): Promise<TestSubscriber> {
  const recorded: Recorded[] = [];
  const behaviours = new Map<string, { verify: VerifyBehaviour; notify: NotifyBehaviour }>();
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://subscriber.test');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Recorded = {
        method: req.method ?? '',
        path: url.pathname,
        rawUrl: req.url ?? '',
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      };
      recorded.push(entry);
      const behaviour = behaviours.get(url.pathname) ?? { verify: 'echo', notify: 'ok' };
      if (req.method === 'GET') {
        const challenge = url.searchParams.get('hub.challenge');
        if (challenge === null) return void res.writeHead(200).end(); // hub.mode=denied and friends
        switch (behaviour.verify) {
          case 'echo':
            return void res.writeHead(200, { 'content-type': 'text/plain' }).end(challenge);
          case 'slow':
            return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(challenge), 800);
          case 'wrong':
            return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`${challenge}x`);
          case 'fail':
            return void res.writeHead(404).end('no');
          case 'hang':
            hanging.add(res);
            res.once('close', () => (entry.closedAt = Date.now()));
            return;
        }
      }
      switch (behaviour.notify) {
        case 'ok':
          return void res.writeHead(204).end();
        case 'fail':
          return void res.writeHead(500).end('broken');
        case 'gone':
          return void res.writeHead(410).end('gone');
        case 'redirect':
          return void res.writeHead(307, { location: url.href }).end();
        case 'hang':
          hanging.add(res);
          res.once('close', () => (entry.closedAt = Date.now()));
          return;
        case 'late': {
          hanging.add(res);
          res.once('close', () => (entry.closedAt = Date.now()));
          const timer = setTimeout(() => res.writeHead(204).end(), LATE_ANSWER_MS);
          res.once('close', () => clearTimeout(timer));
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    port,
    url: (path, query) => `${origin}${path}${query ? `?${query}` : ''}`,
    set(path, behaviour) {
      const current = behaviours.get(path) ?? { verify: 'echo', notify: 'ok' };
      behaviours.set(path, { ...current, ...behaviour });
    },
    requests: (path) => recorded.filter((r) => path === undefined || r.path === path),
    verifications: (path, mode) =>
      recorded.filter(
        (r) => r.path === path && r.method === 'GET' && (mode === undefined || r.query.get('hub.mode') === mode),
      ),
    notifications: (path) => recorded.filter((r) => r.path === path && r.method === 'POST'),
    async waitFor(predicate, timeoutMs = 5000, what = 'condition') {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(recorded)) {
        if (Date.now() > deadline)
          throw new Error(
            `timed out waiting for ${what}; recorded: ${recorded.map((r) => `${r.method} ${r.path}?${r.query}`).join(' | ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    clear: () => void recorded.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
