/**
 * What an API handler answers, before it is a Web Response or a Node write:
 * status, headers and bytes. The Node entry writes it straight to the socket
 * (the hot path, no Request/Response objects); the Astro routes and serverless
 * hosts turn it into a Response with toResponse. Same answer, same bytes.
 */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  /** Null for 204, 304 and HEAD. */
  body: Uint8Array | null;
  /**
   * On a 200 that depends on nothing but its URL, and on the request only
   * through Accept-Encoding and the validators: the resource itself, so a
   * server can answer that URL again without routing or handling it (the Node
   * entry keeps it by URL, src/lib/http/kept-answers.ts).
   */
  resource?: Resource;
}

type RequestHeaders = { get(name: string): string | null };

/** One resource's representations, answered for any request headers (200 in an encoding, or 304). */
export interface Resource {
  answer(requestHeaders: RequestHeaders): ApiAnswer;
  /** The most bytes it can come to hold: its body and each compressed form it may make. */
  readonly maxBytes: number;
}

/**
 * The request as an API handler reads it: Web Headers and Node's both fit. The
 * path and the raw query string are enough; the Node entry cuts them from the
 * request line without building a URL.
 */
export interface ApiRequest {
  method: string;
  /** The URL's path, percent-encoded as sent. */
  path: string;
  /** The query string with its `?`, or '' when there is none. */
  search: string;
  headers: { get(name: string): string | null };
}

export function toResponse(answer: ApiAnswer): Response {
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
}

export function fromRequest(request: Request): ApiRequest {
  const url = new URL(request.url);
  return { method: request.method, path: url.pathname, search: url.search, headers: request.headers };
}

const encoder = new TextEncoder();

export function textBytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * A response body of these bytes, read as they are: `new Response(bytes)` copies them first,
 * and the reader copies again (the prerender reading reviews.json, 56 MB at 100k reviews: a
 * stream of the one chunk took 60 ms where the bytes took 135–165).
 */
export function bytesBody(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
