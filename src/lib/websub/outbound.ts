/**
 * Every request the hub sends (verification, notification, denial) goes
 * through here: the callback is checked again (resolve + every address), the
 * connection is pinned to the checked addresses with SNI and certificate
 * checks against the host name, redirects are never followed (a 3xx is just an
 * answer), and one deadline covers DNS, connect, TLS and the answer.
 */
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { createSecureContext, type ConnectionOptions, type SecureContext } from 'node:tls';
import type { Resolver } from './dns.ts';
import { resolveTarget, pinnedLookup } from './ssrf.ts';

export interface OutboundRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer;
  /**
   * Bytes of the answer to keep. Once that many have come, the answer is
   * complete as far as the hub cares: the connection is closed rather than
   * read on (a verification keeps the challenge's length + 1, enough to tell
   * "exactly the challenge" from "more"). 0: the body is read and dropped.
   */
  keepBodyBytes?: number;
}

export type OutboundResult =
  /** `address`: the IP address that answered (one of those checked). */
  | { ok: true; status: number; body: Buffer; address?: string }
  /** `message` may be told to the subscriber (hub.reason); `detail`, for the log, may name resolved addresses. */
  | { ok: false; error: 'refused' | 'busy' | 'timeout' | 'network'; message: string; detail?: string };

export interface OutboundOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  userAgent: string;
  resolver?: Resolver;
}

/**
 * One TLS context for every request the hub sends. Without it each request
 * makes its own (an OpenSSL SSL_CTX), native memory V8 does not count: a
 * stream of subscribes naming a dead callback piled it up until the next full
 * collection (+200 MiB of RSS in 45 s at 170 subscribes/s, docs/reliability.md,
 * mixed load), and making it was half the CPU of a refused connection. Same
 * trust as a per-request one: Node's roots plus NODE_EXTRA_CA_CERTS; the host
 * name checks are per connection (servername), not in the context.
 */
let sharedContext: SecureContext | undefined;
export const outboundTlsContext = (): SecureContext => (sharedContext ??= createSecureContext());

export async function sendOutbound(req: OutboundRequest, options: OutboundOptions): Promise<OutboundResult> {
  const deadline = Date.now() + options.timeoutMs;
  const checked = await resolveTarget(req.url, {
    allowLoopback: options.allowLoopback,
    resolver: options.resolver,
    timeoutMs: options.timeoutMs,
  });
  if (!checked.ok) {
    const error = checked.kind === 'busy' ? 'busy' : checked.kind === 'unresolved' ? 'network' : 'refused';
    return { ok: false, error, message: checked.reason, detail: checked.detail };
  }
  const { target } = checked;
  const remaining = deadline - Date.now();
  if (remaining <= 0) return { ok: false, error: 'timeout', message: `no answer in ${options.timeoutMs} ms` };
  const keep = req.keepBodyBytes ?? 0;

  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const finish = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const headers: Record<string, string> = { 'user-agent': options.userAgent, ...req.headers };
    if (req.body) headers['content-length'] = String(req.body.length);
    // https.request hands every option to tls.connect; its types omit secureContext.
    const requestOptions: RequestOptions & Pick<ConnectionOptions, 'secureContext'> = {
      protocol: 'https:',
      host: target.servername || target.addresses[0]!.address,
      port: target.url.port || 443,
      path: `${target.url.pathname}${target.url.search}`,
      method: req.method,
      headers,
      lookup: pinnedLookup(target.addresses),
      ...(target.servername ? { servername: target.servername } : {}),
      agent: false,
      secureContext: outboundTlsContext(),
      // Answers are small or dropped; a giant header block is not our problem to parse.
      maxHeaderSize: 16 * 1024,
    };
    const outgoing = httpsRequest(requestOptions, (res) => {
      const address = res.socket?.remoteAddress;
      const chunks: Buffer[] = [];
      let size = 0;
      const answered = () => finish({ ok: true, status: res.statusCode ?? 0, body: Buffer.concat(chunks), address });
      res.on('data', (chunk: Buffer) => {
        if (size < keep) chunks.push(chunk.subarray(0, keep - size));
        size += chunk.length;
        // Enough to decide: stop reading (a callback streaming megabytes is not read until the deadline).
        if (keep > 0 && size >= keep) {
          answered();
          outgoing.destroy();
        }
      });
      res.once('end', answered);
      res.once('error', (error) => finish({ ok: false, error: 'network', message: error.message }));
    });
    const timer = setTimeout(() => {
      finish({ ok: false, error: 'timeout', message: `no answer in ${options.timeoutMs} ms` });
      outgoing.destroy();
    }, remaining);
    outgoing.once('error', (error) => finish({ ok: false, error: 'network', message: error.message }));
    outgoing.end(req.body);
  });
}
