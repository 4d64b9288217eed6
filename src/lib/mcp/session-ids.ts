/**
 * Signed MCP session ids. The SDK's stateful transport keeps sessions in one
 * process, so an id it did not issue gets "Server not initialized" (SDK issues
 * #1658, #1882). Instead the id carries its own expiry and protocol version,
 * signed with HMAC-SHA256: any instance with the key can check it, before and
 * after a restart, and serve the request with a fresh stateless transport. Only
 * the ids ended by DELETE need shared state, and only until they would expire:
 * found by that expiry (session-store.ts keeps one set per hour of it).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SessionClaims {
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
  /** Negotiated protocol version. */
  pv: string;
  /** Random: two sessions issued in the same second still differ. */
  n: string;
}

export interface EndedSessions {
  /** `expiresAt`: the id's signed expiry, seconds since the epoch. */
  isEnded(id: string, expiresAt: number): Promise<boolean>;
  /** Kept at least `ttlSeconds`: until the id would have expired. */
  markEnded(id: string, expiresAt: number, ttlSeconds: number): Promise<void>;
}

export type SessionCheck =
  { ok: true; claims: SessionClaims } | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' | 'ended' };

export class SessionSigner {
  readonly #secret: Uint8Array;
  readonly #ttlSeconds: number;
  readonly #ended: EndedSessions;
  readonly #now: () => number;

  constructor(options: { secret: Uint8Array; ttlSeconds: number; ended: EndedSessions; now?: () => number }) {
    this.#secret = new Uint8Array(options.secret);
    this.#ttlSeconds = options.ttlSeconds;
    this.#ended = options.ended;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  issue(protocolVersion: string): string {
    const iat = this.#now();
    const claims: SessionClaims = {
      iat,
      exp: iat + this.#ttlSeconds,
      pv: protocolVersion,
      n: Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('base64url'),
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.#sign(payload).toString('base64url')}`;
  }

  async check(id: string): Promise<SessionCheck> {
    const claims = this.#verify(id);
    if ('reason' in claims) return { ok: false, reason: claims.reason };
    if (claims.exp <= this.#now()) return { ok: false, reason: 'expired' };
    if (await this.#ended.isEnded(id, claims.exp)) return { ok: false, reason: 'ended' };
    return { ok: true, claims };
  }

  /** The claims of a well-signed id, or why not. */
  #verify(id: string): SessionClaims | { reason: 'malformed' | 'bad-signature' } {
    // Visible ASCII only, as the transport spec requires of session ids; bounded length.
    if (id.length > 512 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(id)) return { reason: 'malformed' };
    const [payload, signature] = id.split('.') as [string, string];
    const signatureBytes = fromBase64Url(signature);
    if (!signatureBytes) return { reason: 'malformed' };
    const expected = this.#sign(payload);
    if (signatureBytes.length !== expected.length || !timingSafeEqual(signatureBytes, expected))
      return { reason: 'bad-signature' };
    const claims = parseClaims(payload);
    if (!claims) return { reason: 'malformed' };
    return claims;
  }

  /** HMAC-SHA256 of the payload: synchronous, a few microseconds (WebCrypto's queue costs far more per id). */
  #sign(payload: string): Buffer {
    return createHmac('sha256', this.#secret).update(payload).digest();
  }

  /** Ends a session for every instance until it would have expired anyway. */
  async end(id: string, claims: SessionClaims): Promise<void> {
    await this.#ended.markEnded(id, claims.exp, Math.max(1, claims.exp - this.#now()));
  }
}

function parseClaims(payload: string): SessionClaims | null {
  const bytes = fromBase64Url(payload);
  if (!bytes) return null;
  try {
    const value = JSON.parse(bytes.toString()) as Partial<SessionClaims>;
    if (
      typeof value.iat !== 'number' ||
      typeof value.exp !== 'number' ||
      typeof value.pv !== 'string' ||
      typeof value.n !== 'string'
    )
      return null;
    return value as SessionClaims;
  } catch {
    return null;
  }
}

/** The bytes of canonical, non-empty base64url; null for anything else. */
function fromBase64Url(text: string): Buffer | null {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.length > 0 && bytes.toString('base64url') === text ? bytes : null;
}
