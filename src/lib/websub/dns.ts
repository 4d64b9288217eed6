/**
 * Host name lookups for the callback guard, on c-ares (`dns.Resolver`:
 * resolve4 + resolve6), never `dns.lookup`: lookup runs getaddrinfo on
 * libuv's thread pool (4 threads by default), cannot be cancelled, and a few
 * callbacks naming a host whose DNS never answers would hold every pool
 * thread and stall the process's file I/O (the file store included). c-ares
 * queries are plain sockets on the event loop; each lookup has its own
 * Resolver, cancelled at the deadline.
 *
 * At most `maxConcurrent` lookups run at once per process; up to `maxWaiting`
 * more wait for a slot until their deadline, and past that a lookup fails at
 * once with LookupBusyError (a subscribe request is then refused with "try
 * again later"; see docs/websub.md). c-ares does not read /etc/hosts: the
 * name `localhost` is answered here (RFC 6761: always loopback), so the
 * guard refuses it unless loopback callbacks are allowed (tests).
 */
import { Resolver as CaresResolver } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name (never an IP literal) within `timeoutMs`. */
export type Resolver = (hostname: string, options: { timeoutMs: number }) => Promise<ResolvedAddress[]>;

export class LookupBusyError extends Error {
  constructor() {
    super('too many host name lookups in progress');
    this.name = 'LookupBusyError';
  }
}

export interface DnsResolverOptions {
  /** Name servers (`ip` or `ip:port`); the system's by default. Tests point it at a local server. */
  servers?: string[];
  maxConcurrent?: number;
  maxWaiting?: number;
}

const MAX_CONCURRENT_LOOKUPS = 8;
const MAX_WAITING_LOOKUPS = 128;

const LOCALHOST: ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** Codes that mean "no such name or no records of this type", as opposed to a failure to ask. */
const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME']);

export interface DnsResolver extends Resolver {
  /** Lookups running and waiting now (tests and diagnostics). */
  readonly stats: () => { running: number; waiting: number };
}

export function createDnsResolver(options: DnsResolverOptions = {}): DnsResolver {
  const { maxConcurrent = MAX_CONCURRENT_LOOKUPS, maxWaiting = MAX_WAITING_LOOKUPS } = options;
  let running = 0;
  const waiting: Array<() => void> = [];

  /** A slot, or false if the deadline passed first; throws LookupBusyError when even the queue is full. */
  const acquire = (deadline: number): Promise<boolean> => {
    if (running < maxConcurrent) {
      running++;
      return Promise.resolve(true);
    }
    if (waiting.length >= maxWaiting) return Promise.reject(new LookupBusyError());
    return new Promise((resolve) => {
      const take = () => {
        clearTimeout(timer);
        running++;
        resolve(true);
      };
      const timer = setTimeout(
        () => {
          const at = waiting.indexOf(take);
          if (at >= 0) waiting.splice(at, 1);
          resolve(false);
        },
        Math.max(0, deadline - Date.now()),
      );
      waiting.push(take);
    });
  };
  const release = () => {
    running--;
    waiting.shift()?.();
  };

  const resolver = async (hostname: string, { timeoutMs }: { timeoutMs: number }): Promise<ResolvedAddress[]> => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) return LOCALHOST;
    const deadline = Date.now() + timeoutMs;
    if (!(await acquire(deadline))) throw new Error(`no lookup slot within ${timeoutMs} ms`);
    const remaining = Math.max(1, deadline - Date.now());
    // Two tries per server, each with a share of the deadline; the timer below cancels whatever is left.
    const channel = new CaresResolver({ timeout: Math.max(50, Math.floor(remaining / 2)), tries: 2 });
    if (options.servers) channel.setServers(options.servers);
    const timer = setTimeout(() => channel.cancel(), remaining);
    try {
      const family = async (query: Promise<string[]>, type: 4 | 6): Promise<ResolvedAddress[]> => {
        try {
          return (await query).map((address) => ({ address, family: type }));
        } catch (error) {
          if (NO_ANSWER.has((error as NodeJS.ErrnoException).code ?? '')) return [];
          throw error;
        }
      };
      const [v4, v6] = await Promise.allSettled([family(channel.resolve4(name), 4), family(channel.resolve6(name), 6)]);
      const found = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
      // One family answering is enough (the connection is pinned to what was checked); none is a failure.
      if (found.length === 0 && v4.status === 'rejected') throw v4.reason;
      if (found.length === 0 && v6.status === 'rejected') throw v6.reason;
      return found;
    } finally {
      clearTimeout(timer);
      release();
    }
  };
  return Object.assign(resolver, { stats: () => ({ running, waiting: waiting.length }) });
}

/** The process-wide resolver: its cap holds across every hub request and delivery. */
export const systemResolver: DnsResolver = createDnsResolver();
