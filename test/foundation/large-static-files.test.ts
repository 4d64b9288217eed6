/**
 * Static files too large to keep in memory (src/node/static-files.ts,
 * HELD_MAX_BYTES) are sent from disk through one reused buffer per response
 * (src/node/send-file.ts): the same bytes, a closed file once the client goes,
 * and not a fresh 64 KiB buffer per chunk as fs.createReadStream allocates
 * (docs/reliability.md, mixed load: that churn was RSS growth).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { MANIFEST_FILE, type StaticManifest } from '../../src/lib/static/manifest.ts';
import { CHUNK_BYTES } from '../../src/node/send-file.ts';
import { loadStaticFiles, type StaticFiles } from '../../src/node/static-files.ts';
import { strongEtag } from '../../src/lib/http/etag.ts';

/** 3 MiB and a partial chunk: well above what is kept in memory. */
const SIZE = 3 * 1024 * 1024 + 12_345;
const body = Buffer.alloc(SIZE);
for (let i = 0; i < SIZE; i++) body[i] = (i * 31 + (i >> 16)) & 0xff;

let dir: string;
let server: Server;
let origin: string;
let files: StaticFiles;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'large-static-'));
  writeFileSync(join(dir, 'big.json'), body);
  writeFileSync(join(dir, 'hashed.json'), body);
  const manifest: StaticManifest = {
    '/big.json': {
      file: 'big.json',
      contentType: 'application/json',
      etag: '"big"',
      size: SIZE,
      cacheControl: 'no-cache',
      encodings: [],
    },
    '/hashed.json': {
      file: 'hashed.json',
      contentType: 'application/json',
      etag: strongEtag(body),
      size: SIZE,
      cacheControl: 'no-cache',
      encodings: [],
    },
  };
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest));
  files = loadStaticFiles(dir);
  server = createServer((req, res) => {
    if (!files.serve(req, res, new URL(req.url ?? '/', 'http://x').pathname)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function fetchWhole(
  path: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

it('sends the file byte for byte, its length from the file, through one buffer', async () => {
  const original = Buffer.allocUnsafeSlow;
  const sizes: number[] = [];
  // fs.createReadStream looks Buffer.allocUnsafeSlow up at each read: one call per 64 KiB chunk.
  Buffer.allocUnsafeSlow = (size: number) => {
    sizes.push(size);
    return original(size);
  };
  let answer;
  try {
    answer = await fetchWhole('/big.json');
  } finally {
    Buffer.allocUnsafeSlow = original;
  }
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['content-length'], String(SIZE));
  assert.ok(answer.body.equals(body), 'the same bytes');
  const chunkBuffers = sizes.filter((size) => size === CHUNK_BYTES).length;
  assert.ok(
    chunkBuffers <= 1,
    `${chunkBuffers} chunk buffers allocated for one response (${Math.ceil(SIZE / CHUNK_BYTES)} chunks)`,
  );
});

it('answers HEAD with the length and no body', async () => {
  const answer = await fetchWhole('/big.json', 'HEAD');
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['content-length'], String(SIZE));
  assert.equal(answer.body.length, 0);
});

it('closes the file when the client goes away mid-body', { skip: !existsSync('/proc/self/fd') }, async () => {
  const openFiles = () => readdirSync('/proc/self/fd').length;
  const before = openFiles();
  for (let i = 0; i < 5; i++) {
    await new Promise<void>((resolve, reject) => {
      const req = get(`${origin}/big.json`, { agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error)));
    });
  }
  const deadline = Date.now() + 5000;
  while (openFiles() > before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  // At most as many: a socket of the previous test may have closed since.
  assert.ok(
    openFiles() <= before,
    `${openFiles() - before} more open files: every file opened for an abandoned answer is closed`,
  );
  // And the server still answers whole files afterwards.
  assert.ok((await fetchWhole('/big.json')).body.equals(body));
});

it("read: a file's SHA-256 from the manifest's ETag, its bytes read only when asked for (the hub's start-up hash of reviews.json)", () => {
  const got = files.read('/hashed.json')!;
  assert.equal(got.sha256, createHash('sha256').update(body).digest('hex'));
  rmSync(join(dir, 'hashed.json'));
  // Gone from disk before its bytes were asked for: nothing was read.
  assert.throws(() => got.body, { code: 'ENOENT' });
  assert.equal(files.read('/big.json')!.sha256, undefined, 'an ETag that is not a SHA-256: none');
});
