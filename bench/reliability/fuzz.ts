/**
 * Fuzzing every dynamic endpoint of the real Node server: at least 10,000 requests each to search, since, /mcp at
 * 2025-06-18 (with and without a session), /mcp at 2026-07-28 and the WebSub
 * hub, made from valid requests by random mutations (parameter names and
 * values, repeats, encodings, methods, content types, bodies: broken JSON,
 * deep nesting, wrong types, batches). Seeded, so a failure is repeatable.
 *
 * Must hold: no 5xx and no dropped connection; every 4xx is a JSON error
 * body of at most MAX_ERROR_BYTES.
 *
 *   node_modules/.bin/node bench/reliability/fuzz.ts [--requests 10000] [--seed 14] [--only search]
 */
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { startServer } from '../../test/helpers/server.ts';
import { ACCEPT, initializeRequest } from '../../test/mcp/helpers.ts';
import { freePort, tempDir, TOPICS } from '../../test/websub/helpers.ts';
import { requireBuilds, verdicts } from './lib/scenario.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '14' },
    only: { type: 'string' },
    connections: { type: 'string', default: '8' },
  },
});
const perEndpoint = Number(values.requests);
const seed = Number(values.seed);
/** What "a small JSON error" means here: the largest 4xx body accepted. */
const MAX_ERROR_BYTES = 4096;
requireBuilds('small');
const v = verdicts(`fuzz: ${perEndpoint} requests per dynamic endpoint, seed ${seed}`);

/** mulberry32: a small seeded PRNG, so a run can be repeated exactly. */
function prng(state: number) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(seed);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
const chance = (p: number) => random() < p;

const NASTY = [
  '',
  ' ',
  '0',
  '-1',
  '1',
  '5',
  '6',
  '3.5',
  '1e3',
  '1e309',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  '99999999999999999999',
  'true',
  'null',
  '[]',
  '{}',
  'leak',
  'Dave Kowalski',
  'gutters',
  'a'.repeat(300),
  'é'.repeat(50),
  '%',
  '%zz',
  '%00',
  '%FF%FE',
  '%C0%AF',
  '%E2%80%AE',
  '\u0000',
  '\u202e',
  '😀',
  '../..',
  '<script>',
  "' OR 1=1 --",
  '2024-01-01',
  '0001-01-01',
  '9999-12-31',
  '2024-02-30',
  '2024-13-01',
  '2024-1-1',
  '24-01-01',
  '2024-01-01T00:00:00Z',
  '2024-01-01T25:00:00Z',
  '1970-01-01',
  '-2024-01-01',
  '+002024-01-01',
  '2024/01/01',
];
const SEARCH_PARAMS = [
  'query',
  'rating',
  'min_rating',
  'since',
  'until',
  'limit',
  'cursor',
  'mentions_technician',
  'mentions_service',
  'offset',
  'sort',
  'page',
  '__proto__',
  'constructor',
  'format',
  '',
];
const value = () =>
  chance(0.1) ? Array.from({ length: 1 + int(40) }, () => String.fromCharCode(int(0x3000))).join('') : pick(NASTY);
const enc = (text: string) => (chance(0.2) ? text : encodeURIComponent(text));
const query = (names: readonly string[]) => {
  const parts: string[] = [];
  const count = chance(0.05) ? 50 + int(300) : int(5);
  for (let i = 0; i < count; i++) {
    const name = chance(0.85) ? pick(names) : `x${int(1000)}`;
    parts.push(chance(0.05) ? enc(name) : `${enc(name)}=${enc(value())}`);
  }
  return parts.length === 0 ? '' : `?${parts.join(pick(['&', '&', '&', ';', '&&']))}`;
};

interface Fuzzed {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
type Endpoint = { name: string; make: () => Fuzzed };

const METHODS = ['GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];
const jsonValue = (depth = 0): unknown => {
  switch (int(depth > 3 ? 5 : 8)) {
    case 0:
      return null;
    case 1:
      return pick([0, -1, 1, 1.5, 2 ** 53, -(2 ** 31), 1e308]);
    case 2:
      return value();
    case 3:
      return pick([true, false]);
    case 4:
      return pick([4, 20, 'x', 100, 101, 0]);
    case 5:
      return Array.from({ length: int(4) }, () => jsonValue(depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: int(4) }, () => [
          pick([
            'query',
            'min_rating',
            'limit',
            'id',
            'rating',
            'since',
            'uri',
            'name',
            'arguments',
            '__proto__',
            value(),
          ]),
          jsonValue(depth + 1),
        ]),
      );
  }
};
const MCP_METHODS = [
  'initialize',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'ping',
  'notifications/initialized',
  'logging/setLevel',
  'completion/complete',
  'nope',
  '',
  'server/discover',
];
const TOOLS = ['search_reviews', 'get_review', 'get_business', 'get_insights', 'nope', ''];
const modernMeta = () => ({
  'io.modelcontextprotocol/protocolVersion': chance(0.85) ? '2026-07-28' : pick(['2025-06-18', '1999-01-01', value()]),
  'io.modelcontextprotocol/clientInfo': chance(0.9) ? { name: 'fuzz', version: '1' } : jsonValue(),
  'io.modelcontextprotocol/clientCapabilities': chance(0.9) ? {} : jsonValue(),
});
const rpc = (modern: boolean): unknown => {
  const method = pick(MCP_METHODS);
  const params: Record<string, unknown> =
    method === 'tools/call'
      ? { name: pick(TOOLS), arguments: chance(0.8) ? jsonValue(1) : value() }
      : method === 'initialize'
        ? { ...initializeRequest(pick(['2025-06-18', '2025-03-26', '2024-11-05', value()])).params }
        : method === 'resources/read'
          ? { uri: pick(['reviews://all', 'review://x', value(), 'https://example.com/']) }
          : ((jsonValue(1) as Record<string, unknown>) ?? {});
  if (modern && chance(0.85) && params && typeof params === 'object') params._meta = modernMeta();
  const message: Record<string, unknown> = {
    jsonrpc: chance(0.95) ? '2.0' : pick(['1.0', 2, null]),
    method,
    params: chance(0.9) ? params : jsonValue(),
  };
  if (!method.startsWith('notifications/') || chance(0.2)) message.id = chance(0.9) ? int(1e6) : jsonValue();
  if (chance(0.05)) delete message.method;
  return message;
};
const jsonBody = (modern: boolean): string => {
  const roll = int(20);
  if (roll === 0) return '{"jsonrpc":"2.0","id":1,"method":"tools/list"'; // cut short
  if (roll === 1) return `${'['.repeat(5000 + int(50_000))}${']'.repeat(int(2) ? 5000 : 0)}`; // deep nesting
  if (roll === 2) return JSON.stringify(Array.from({ length: int(4) }, () => rpc(modern))); // a batch (or an empty one)
  if (roll === 3) return value();
  if (roll === 4) return JSON.stringify(rpc(modern)).replace(/"/, "'");
  return JSON.stringify(rpc(modern));
};
const mcpHeaders = (extra: Record<string, string>) => {
  // Mostly what a client sends, so most requests get past the header checks to the JSON-RPC handling.
  const contentType = chance(0.85)
    ? pick(['application/json', 'application/json; charset=utf-8'])
    : pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']);
  const headers: Record<string, string> = {
    'content-type': contentType,
    accept: chance(0.85) ? ACCEPT : pick(['application/json', 'text/event-stream', '*/*', 'text/html']),
    ...extra,
  };
  if (chance(0.1)) delete headers['content-type'];
  return headers;
};

function endpoints(sessionId: string, deadPort: number): Endpoint[] {
  return [
    {
      name: 'search',
      make: () => ({
        method: chance(0.9) ? 'GET' : pick(METHODS),
        path: `${pick(['/api/reviews/search', '/api/reviews/search/', '/api/reviews/search'])}${query(SEARCH_PARAMS)}`,
        headers: {},
      }),
    },
    {
      name: 'since',
      make: () => ({
        method: chance(0.9) ? 'GET' : pick(METHODS),
        path: `/api/reviews/since/${enc(chance(0.7) ? pick(NASTY.slice(-14)) : value())}${chance(0.3) ? query(['cursor', 'limit', 'until', 'since']) : ''}`,
        headers: {},
      }),
    },
    {
      name: 'MCP 2025-06-18',
      make: () => {
        const session: Record<string, string> = chance(0.7)
          ? { 'mcp-session-id': chance(0.9) ? sessionId : value().replace(/[^\x21-\x7e]/g, '') || 'x' }
          : {};
        const version: Record<string, string> = chance(0.8)
          ? { 'mcp-protocol-version': pick(['2025-06-18', '2025-06-18', '2025-03-26', '2024-11-05', 'x']) }
          : {};
        return {
          method: chance(0.92) ? 'POST' : pick(['GET', 'DELETE', 'PUT', 'OPTIONS']),
          path: '/mcp',
          headers: mcpHeaders({ ...session, ...version }),
          body: jsonBody(false),
        };
      },
    },
    {
      name: 'MCP 2026-07-28',
      make: () => {
        const body = jsonBody(true);
        const headers = mcpHeaders({
          'mcp-protocol-version': chance(0.9) ? '2026-07-28' : pick(['2025-06-18', 'x', '2026-07-29']),
        });
        // The routing headers mostly repeat the body's method and tool name, as a client's do.
        const method = chance(0.85) ? /"method":"([^"]*)"/.exec(body)?.[1] : pick(MCP_METHODS);
        const name = chance(0.85) ? /"name":"([^"]*)"/.exec(body)?.[1] : pick(TOOLS);
        if (method && chance(0.9)) headers['mcp-method'] = method.replace(/[^\x21-\x7e]/g, '') || 'x';
        if (name && chance(0.9)) headers['mcp-name'] = name.replace(/[^\x21-\x7e]/g, '') || 'x';
        return { method: chance(0.95) ? 'POST' : pick(['GET', 'DELETE']), path: '/mcp', headers, body };
      },
    },
    {
      name: 'WebSub hub',
      make: () => {
        const fields: Array<[string, string]> = [];
        const mode = pick(['subscribe', 'unsubscribe', 'publish', 'subscribe', value()]);
        if (chance(0.95)) fields.push(['hub.mode', mode]);
        const callbacks = [
          `https://127.0.0.1:${deadPort}/cb?x=${int(100)}`,
          `http://127.0.0.1:${deadPort}/cb`,
          'https://10.0.0.7/cb',
          'https://[::1]:1/cb',
          'https://user:pw@127.0.0.1/cb',
          'https://localhost:1/',
          '/relative',
          'https://0x7f000001/',
          'https://[::ffff:127.0.0.1]/',
          value(),
        ];
        const topics = [
          TOPICS.atom.url,
          TOPICS.jsonFeed.url,
          TOPICS.reviews.url,
          'https://elsewhere.example/feed',
          value(),
        ];
        if (chance(0.9)) fields.push(['hub.callback', pick(callbacks)]);
        if (chance(0.9)) fields.push([pick(['hub.topic', 'hub.url']), pick(topics)]);
        if (chance(0.3)) fields.push(['hub.lease_seconds', value()]);
        if (chance(0.3)) fields.push(['hub.secret', chance(0.2) ? 'x'.repeat(200 + int(100)) : value()]);
        for (let i = int(chance(0.05) ? 300 : 3); i > 0; i--)
          fields.push([
            chance(0.5) ? pick(['hub.mode', 'hub.topic', 'hub.callback', 'hub.url']) : `f${int(100)}`,
            value(),
          ]);
        let body = fields.map(([name, text]) => `${enc(name)}=${enc(text)}`).join('&');
        if (chance(0.03)) body = `${body}&pad=${'x'.repeat(70_000)}`;
        const contentType = chance(0.85)
          ? pick(['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8'])
          : pick(['application/json', 'multipart/form-data', 'text/plain']);
        return {
          method: chance(0.93) ? 'POST' : pick(['GET', 'PUT', 'DELETE', 'OPTIONS']),
          path: pick([
            '/api/websub/hub',
            '/api/websub/hub',
            '/api/websub/hub/',
            `/api/websub/hub${query(['hub.mode', 'hub.topic'])}`,
          ]),
          headers: { 'content-type': contentType },
          body,
        };
      },
    },
  ];
}

interface Outcome {
  status: number;
  contentType: string;
  bytes: number;
  json: boolean;
  error?: string;
}
const agent = new Agent({ keepAlive: true, maxSockets: Number(values.connections) });
function send(origin: URL, fuzzed: Fuzzed): Promise<Outcome> {
  return new Promise((resolveSend) => {
    let path = fuzzed.path;
    // node:http refuses targets with raw control characters or spaces: send them percent-encoded.
    if (/[^\x21-\x7e]/.test(path))
      path = [...Buffer.from(path)]
        .map((byte) =>
          byte > 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`,
        )
        .join('');
    const body =
      fuzzed.body === undefined || fuzzed.method === 'GET' || fuzzed.method === 'HEAD'
        ? undefined
        : Buffer.from(fuzzed.body);
    const req = request(
      {
        host: origin.hostname,
        port: origin.port,
        method: fuzzed.method,
        path,
        agent,
        headers: { ...fuzzed.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks);
          let json = false;
          try {
            JSON.parse(text.toString('utf8'));
            json = true;
          } catch {}
          resolveSend({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            bytes: text.length,
            json,
          });
        });
        res.on('error', (error) =>
          resolveSend({ status: 0, contentType: '', bytes: 0, json: false, error: String(error) }),
        );
      },
    );
    req.on('error', (error) =>
      resolveSend({ status: 0, contentType: '', bytes: 0, json: false, error: String(error) }),
    );
    req.end(body);
  });
}

const storeDir = tempDir('reliability-fuzz-');
const server = await startServer('small', {
  STORE_DIR: storeDir,
  WEBSUB_ALLOW_LOOPBACK: 'true',
  WEBSUB_SUBSCRIBE_RATE_LIMIT: '1000000000',
  WEBSUB_PUBLISH_RATE_LIMIT: '1000000000',
  WEBSUB_TIMEOUT_MS: '1000',
  SEARCH_MISS_RATE_LIMIT: 'off',
});
try {
  const init = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify(initializeRequest('2025-06-18')),
  });
  const sessionId = init.headers.get('mcp-session-id') ?? 'none';
  await init.text();
  const origin = new URL(server.url);
  const chosen = endpoints(sessionId, await freePort()).filter(
    (e) => !values.only || e.name.toLowerCase().startsWith(values.only.toLowerCase()),
  );
  const connections = Number(values.connections);
  for (const endpoint of chosen) {
    const statuses: Record<string, number> = {};
    const bad: Array<{ why: string; request: Fuzzed; outcome: Outcome }> = [];
    let largest4xx = 0;
    let done = 0;
    const started = performance.now();
    const worker = async () => {
      while (done < perEndpoint) {
        done++;
        const fuzzed = endpoint.make();
        const outcome = await send(origin, fuzzed);
        statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
        let why = '';
        if (outcome.status === 0) why = `no answer (${outcome.error})`;
        else if (outcome.status >= 500) why = `${outcome.status}`;
        else if (outcome.status >= 400 && fuzzed.method !== 'HEAD') {
          largest4xx = Math.max(largest4xx, outcome.bytes);
          if (!outcome.json || !/json/.test(outcome.contentType))
            why = `${outcome.status} not JSON (${outcome.contentType || 'no content type'})`;
          else if (outcome.bytes > MAX_ERROR_BYTES) why = `${outcome.status} of ${outcome.bytes} bytes`;
        }
        if (why) bad.push({ why, request: fuzzed, outcome });
      }
    };
    await Promise.all(Array.from({ length: connections }, worker));
    const seconds = (performance.now() - started) / 1000;
    v.figure(
      endpoint.name,
      `${done} requests in ${seconds.toFixed(0)} s, statuses ${JSON.stringify(statuses)}, largest 4xx body ${largest4xx} B`,
    );
    const kinds = new Map<string, number>();
    for (const b of bad)
      kinds.set(
        b.why.replace(/\d{3,} bytes/, 'N bytes').replace(/\(.*\)/, '(…)'),
        (kinds.get(b.why.replace(/\d{3,} bytes/, 'N bytes').replace(/\(.*\)/, '(…)')) ?? 0) + 1,
      );
    const example = bad[0]
      ? ` e.g. ${bad[0].why}: ${bad[0].request.method} ${bad[0].request.path.slice(0, 160)}${bad[0].request.body ? ` body ${JSON.stringify(bad[0].request.body.slice(0, 160))}` : ''} headers ${JSON.stringify(bad[0].request.headers)}`
      : '';
    v.check(
      `${endpoint.name}: no 5xx, every 4xx a JSON error of ≤ ${MAX_ERROR_BYTES} B`,
      bad.length === 0,
      bad.length === 0
        ? 'held'
        : `${bad.length} bad: ${[...kinds].map(([k, n]) => `${k} ×${n}`).join(', ')};${example}`,
    );
  }
  const log = server.output();
  const failures = log.split('\n').filter((line) => /request failed|RangeError|TypeError/.test(line));
  v.check(
    'no failure in the server log',
    failures.length === 0,
    failures.length === 0 ? 'none' : `${failures.length} lines, first: ${failures[0]!.slice(0, 200)}`,
  );
} finally {
  agent.destroy();
  await server.stop();
  rmSync(storeDir, { recursive: true, force: true });
}
v.finish();
