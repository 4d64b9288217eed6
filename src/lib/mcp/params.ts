/**
 * `params` of the requests a server handles, checked against the SDK's own
 * request schemas before the transport sees them. The SDK parses a request
 * with its schema outside its error mapping, so a bad `params` (`tools/call`
 * without params, `"arguments": null`, `initialize` without params) would come
 * back as -32603 Internal error with a pretty-printed zod dump. Here it is
 * -32602 Invalid params with a one-line message naming the field.
 *
 * Only methods the server has a handler for are checked: an unknown method
 * stays the SDK's -32601, whatever its params. Tool *arguments* are not checked
 * here (any object passes): the tools answer bad arguments with `isError`.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ClientRequestSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

type RequestSchema = (typeof ClientRequestSchema.options)[number];

/** Every request a client may send, by method: `initialize` → InitializeRequestSchema, ... */
export const REQUEST_SCHEMAS = new Map<string, RequestSchema>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value as string, schema]),
);

export interface InvalidParams {
  jsonrpc: '2.0';
  id: string | number;
  error: { code: number; message: string };
}

/** The methods `server` answers (Protocol.assertCanSetRequestHandler throws for exactly those). */
export function servedMethods(server: Server): Set<string> {
  const served = new Set<string>();
  for (const method of REQUEST_SCHEMAS.keys()) {
    try {
      server.assertCanSetRequestHandler(method);
    } catch {
      served.add(method);
    }
  }
  return served;
}

/**
 * The JSON-RPC error for a request (it has an `id`) of a served method whose
 * `params` its schema refuses; null for anything else (notifications and
 * responses included). `message` has already passed JSONRPCMessageSchema.
 */
export function invalidParams(message: unknown, served: ReadonlySet<string>): InvalidParams | null {
  if (typeof message !== 'object' || message === null) return null;
  const { id, method } = message as { id?: unknown; method?: unknown };
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof method !== 'string' || !served.has(method))
    return null;
  const schema = REQUEST_SCHEMAS.get(method);
  if (!schema) return null;
  const parsed = schema.safeParse(message);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const where = issue ? formatPath(issue.path) : 'params';
  const what = (issue?.message ?? 'invalid')
    .replace(/^Invalid input: /, '')
    .replace(/^expected (\w+), received undefined$/, 'missing (expected $1)');
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}: ${where}: ${what}` },
  };
}

/** `['params', 'arguments']` → `params.arguments`; `['params', 'items', 0]` → `params.items[0]`. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : `${text ? '.' : ''}${String(part)}`;
  return text || 'params';
}
