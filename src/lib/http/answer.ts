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
}

/** The request as an API handler reads it: Web Headers and Node's both fit. */
export interface ApiRequest {
  method: string;
  url: URL;
  headers: { get(name: string): string | null };
}

export function toResponse(answer: ApiAnswer): Response {
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
}

export function fromRequest(request: Request): ApiRequest {
  return { method: request.method, url: new URL(request.url), headers: request.headers };
}

const encoder = new TextEncoder();

export function textBytes(text: string): Uint8Array {
  return encoder.encode(text);
}
