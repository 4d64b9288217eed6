/**
 * Answers whose clients do not read them: the bytes of finished answers held
 * across connections are bounded (past the budget, a prompt 503 with
 * Retry-After instead of one more answer held), an answer is written with
 * backpressure, and a client that has not taken its answer by the deadline
 * loses the connection, which gives its bytes back.
 *
 * The bridge itself under a real node:http server and real sockets, with
 * answers of 12 MiB (on loopback the kernel takes about 4 MB of a paused
 * client's answer, so the rest stays with the process); then the real server,
 * with the budget set through the environment as an operator sets it.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { runWebHandler, type AnswerBounds } from '../../src/node/web-bridge.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { initialize, post } from '../mcp/helpers.ts';

const MIB = 1024 * 1024;
const ANSWER_BYTES = 12 * MIB;
// Long enough that two stalled clients and a refused third are in place before it passes on a loaded machine.
const DEADLINE_MS = 3000;

async function until(done: () => boolean, what: string): Promise<void> {
  const started = performance.now();
  while (!done()) {
    if (performance.now() - started > 5000) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the bridge: unread answers within a budget and a deadline', () => {
  let server: Server;
  let port: number;
  let made = 0;
  const answers: AnswerBounds = { budget: { limitBytes: 30 * MIB, held: 0 }, deadlineMs: DEADLINE_MS };
  const body = Buffer.alloc(ANSWER_BYTES, 0x61);

  before(async () => {
    server = createServer((req, res) => {
      void runWebHandler(
        req,
        res,
        new URL(req.url!, 'http://localhost'),
        () => {
          made += 1;
          return new Response(body, { headers: { 'content-type': 'text/plain' } });
        },
        { maxBodyBytes: 0 },
        { budget: { limitBytes: MIB, held: 0 }, deadlineMs: 5000 },
        answers,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  /**
   * A GET whose answer is not read: the socket is paused once the request is
   * out. `resume` reads on at last and tells how many bytes came before the
   * connection ended (a paused socket sees no end until it reads).
   */
  function stalled(): Promise<{ resume: () => Promise<number> }> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
        socket.pause();
        let bytes = 0;
        socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
        socket.on('error', () => {});
        const ended = new Promise<number>((done) => socket.once('close', () => done(bytes)));
        resolve({
          resume: () => {
            socket.resume();
            return ended;
          },
        });
      });
    });
  }

  /** A GET read to the end: its status and how many bytes came. */
  async function read(): Promise<{ status: number; bytes: number; retryAfter: string | null }> {
    const response = await fetch(`http://127.0.0.1:${port}/`);
    return {
      status: response.status,
      bytes: (await response.arrayBuffer()).byteLength,
      retryAfter: response.headers.get('retry-after'),
    };
  }

  it('two unread answers hold the budget: a third is a prompt 503, and the deadline closes the two', async () => {
    const started = performance.now();
    const first = await stalled();
    const second = await stalled();
    await until(() => answers.budget.held === 2 * ANSWER_BYTES, 'two answers held');

    const refused = await read();
    assert.equal(refused.status, 503);
    assert.equal(refused.retryAfter, '5');
    assert.equal(answers.budget.held, 2 * ANSWER_BYTES, 'refused while the two are held, and holding nothing itself');

    // Neither stalled client reads: at the deadline both lose their connections, which frees the budget.
    await until(() => answers.budget.held === 0, 'the budget freed at the deadline');
    assert.ok(performance.now() - started >= DEADLINE_MS * 0.9, 'not freed before the deadline');
    for (const client of [first, second]) {
      const bytes = await client.resume();
      assert.ok(bytes < ANSWER_BYTES, `the connection was cut, after ${bytes} bytes`);
    }

    // A client that reads gets the whole answer, and gives its bytes back.
    const whole = await read();
    assert.equal(whole.status, 200);
    assert.equal(whole.bytes, ANSWER_BYTES);
    assert.equal(answers.budget.held, 0);
  });

  it('with the budget full, the handler is not even run', async () => {
    const held = answers.budget.held;
    answers.budget.held = answers.budget.limitBytes;
    const before = made;
    assert.equal((await read()).status, 503);
    assert.equal(made, before);
    answers.budget.held = held;
  });
});

describe('the real server: RESPONSE_BODY_BUDGET_BYTES', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer('small', { RESPONSE_BODY_BUDGET_BYTES: '8000', RESPONSE_BODY_TIMEOUT_MS: '2000' });
  });
  after(() => server?.stop());

  it('an MCP answer over what is free is a 503 with Retry-After; small answers still go out', async () => {
    const url = `${server.url}/mcp`;
    const { sessionId } = await initialize(url, '2025-03-26');
    const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
    const small = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, session);
    assert.equal(small.status, 200);
    const batch = Array.from({ length: 20 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const big = await post(url, batch, session);
    assert.equal(big.status, 503, big.text.slice(0, 200));
    assert.equal(big.json.error, 'server_busy');
    assert.equal(big.headers.get('retry-after'), '5');
  });

  it('a bad setting stops the start with what to write', async () => {
    await assert.rejects(
      startServer('small', { RESPONSE_BODY_BUDGET_BYTES: 'lots' }),
      /RESPONSE_BODY_BUDGET_BYTES must be a whole number/,
    );
  });
});
