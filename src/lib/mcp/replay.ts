/**
 * Answers the SDK gave before, given again without the SDK: the fast path of
 * /mcp for the read requests clients repeat (`tools/call`, `resources/read`,
 * the lists).
 *
 * The data never changes inside a process and every tool is a pure function
 * of its arguments, so once the SDK has answered a request (full pipeline:
 * params and argument validation with the catalog's zod schemas, the tool,
 * result validation, the 2026-07-28 stamps) the same request answers the same
 * bytes; only the JSON-RPC `id` differs. The result is kept as the SDK
 * serialised it, once per distinct request, and later answers are the
 * envelope written around those bytes: byte-for-byte what the SDK would send,
 * by construction, at the cost of a string key and a concatenation.
 *
 * What "the same request" means is strict: the same era and protocol version
 * (scope), and the same body but for `id` (method, params, arguments and the
 * 2026-07-28 `_meta` envelope, as sent), whose id is a string or a safe
 * integer (valid for both SDKs, so it cannot change how they classify the
 * body). Callers consult the replay only after every check the SDK path
 * makes that depends on anything but the body (Host, Origin, Accept,
 * Content-Type, the protocol-version and Mcp-* headers, the session), so a
 * request it answers would have reached the SDK with the same outcome; the
 * checks that depend on the body alone (JSON-RPC shape, era classification,
 * params) gave that outcome when the answer was kept. Errors are never kept:
 * only a 200 `application/json` JSON-RPC result is.
 */
import type { ApiAnswer } from '../http/answer.ts';
import { ResultMemo } from './result-memo.ts';

/** Requests whose answer depends on nothing but their body (no session state, no side effect). */
const REPLAYABLE_METHODS = new Set(['tools/call', 'resources/read', 'tools/list', 'resources/list', 'resources/templates/list']);
/** Longer bodies (huge arguments) are not worth a key: they go to the SDK. */
const MAX_KEY_LENGTH = 4096;
/**
 * Bodies longer than this can never be answered from the replay (their key
 * would be over MAX_KEY_LENGTH even with the id and any spacing taken out
 * of the count): a reader of raw bodies (the Node entry) need not try them.
 */
export const REPLAY_MAX_BODY_BYTES = 2 * MAX_KEY_LENGTH;
const RESULT_PREFIX = Buffer.from('{"result":');
/** In the order a Web Headers object lists them (sorted), so a Node write matches the Web bridge's. */
const HEADERS: Readonly<Record<string, string>> = { 'cache-control': 'no-store', 'content-type': 'application/json' };

/** A request the replay may answer: its id and the key of everything else in it. */
export interface ReplayableRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown> | undefined;
  key: string;
}

/** `message` as a replayable request (one JSON-RPC request of a replayable method), or undefined. */
export function replayable(message: unknown): ReplayableRequest | undefined {
  if (!isPlainObject(message)) return undefined;
  const { id, ...rest } = message;
  if ((typeof id !== 'string' && !Number.isSafeInteger(id)) || rest.jsonrpc !== '2.0' || typeof rest.method !== 'string' || !REPLAYABLE_METHODS.has(rest.method)) return undefined;
  if (rest.params !== undefined && !isPlainObject(rest.params)) return undefined;
  const key = JSON.stringify(rest);
  return key.length > MAX_KEY_LENGTH ? undefined : { id: id as string | number, method: rest.method, params: rest.params, key };
}

export class Replay {
  // Bounded in entries and characters (the answers already computed by the catalog are kept there too).
  readonly #results = new ResultMemo<Uint8Array>(1000, 16 * 1024 * 1024);

  /**
   * The answer the SDK gave to this request in `scope` (era and protocol
   * version), around this id, as status, headers and bytes (a Response on the
   * Web path, written straight to the socket on the Node entry); undefined if
   * none is kept.
   */
  answer(scope: string, request: ReplayableRequest): ApiAnswer | undefined {
    const result = this.#results.peek(`${scope}\n${request.key}`);
    if (result === undefined) return undefined;
    // Bytes, not a string: a Response re-checks and re-encodes a string body, which costs more than the rest of the replay.
    return { status: 200, headers: { ...HEADERS }, body: Buffer.concat([RESULT_PREFIX, result, idSuffix(request.id)]) };
  }

  /**
   * Keeps the result of the SDK's `response` to `request` when it is a plain
   * JSON result (status 200, exactly the headers the replay sends, the
   * envelope around this id); returns the response to send (its body read).
   */
  async remember(scope: string, request: ReplayableRequest, response: Response): Promise<Response> {
    if (response.status !== 200 || !hasExactly(response.headers, HEADERS)) return response;
    const body = Buffer.from(await response.arrayBuffer());
    const suffix = idSuffix(request.id);
    const end = body.length - suffix.length;
    if (end > RESULT_PREFIX.length && body.subarray(0, RESULT_PREFIX.length).equals(RESULT_PREFIX) && body.subarray(end).equals(suffix)) {
      const result = Uint8Array.prototype.slice.call(body, RESULT_PREFIX.length, end);
      this.#results.set(`${scope}\n${request.key}`, result, result.byteLength);
    }
    return new Response(body, { status: response.status, headers: response.headers });
  }
}

function idSuffix(id: string | number): Buffer {
  return Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
}

function hasExactly(headers: Headers, expected: Record<string, string>): boolean {
  let count = 0;
  for (const [name, value] of headers) {
    if (expected[name] !== value) return false;
    count++;
  }
  return count === Object.keys(expected).length;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
