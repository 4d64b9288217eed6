/**
 * Verification of intent (W3C WebSub §5.3) and denial notices (§5.2). The GET
 * keeps the callback's own query string byte for byte and appends the hub's
 * parameters; only a 2xx whose body is exactly the challenge verifies. The
 * challenge is random and used once: every attempt makes a new one.
 */
import { randomBytes } from 'node:crypto';
import { sendOutbound, type OutboundOptions } from './outbound.ts';

function withParams(callback: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `${callback}${callback.includes('?') ? (callback.endsWith('?') || callback.endsWith('&') ? '' : '&') : '?'}${query}`;
}

export interface VerificationOutcome {
  verified: boolean;
  /** Why not, for logs (never the secret). */
  detail: string;
  /** The address that answered the challenge: where the subscriber is, whatever DNS said before. */
  address?: string;
}

export async function verifyIntent(
  intent: { mode: 'subscribe' | 'unsubscribe'; callback: string; topic: string; leaseSeconds?: number },
  outbound: OutboundOptions,
): Promise<VerificationOutcome> {
  const challenge = randomBytes(32).toString('base64url');
  const params: Record<string, string> = {
    'hub.mode': intent.mode,
    'hub.topic': intent.topic,
    'hub.challenge': challenge,
  };
  if (intent.mode === 'subscribe' && intent.leaseSeconds !== undefined)
    params['hub.lease_seconds'] = String(intent.leaseSeconds);
  const result = await sendOutbound(
    { url: withParams(intent.callback, params), method: 'GET', keepBodyBytes: Buffer.byteLength(challenge) + 1 },
    outbound,
  );
  if (!result.ok) return { verified: false, detail: `${result.error}: ${result.detail ?? result.message}` };
  if (result.status < 200 || result.status > 299) return { verified: false, detail: `answered ${result.status}` };
  if (result.body.toString('utf8') !== challenge)
    return { verified: false, detail: 'answered a body other than the challenge' };
  return { verified: true, detail: 'verified', address: result.address };
}

/** Tells a subscriber its subscription is refused or ended (§5.2). The answer is not looked at. */
export async function sendDenied(
  callback: string,
  topic: string,
  reason: string,
  outbound: OutboundOptions,
): Promise<void> {
  await sendOutbound(
    { url: withParams(callback, { 'hub.mode': 'denied', 'hub.topic': topic, 'hub.reason': reason }), method: 'GET' },
    outbound,
  );
}
