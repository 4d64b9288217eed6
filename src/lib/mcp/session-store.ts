/**
 * What MCP sessions keep in the shared store: the signing key when none is
 * configured, and the ids that DELETE ended (until they would have expired).
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store/store.ts';
import type { EndedSessions } from './session.ts';

export const SESSION_KEY = 'mcp:session-key';
const ENDED_PREFIX = 'mcp:ended:';

/**
 * The session signing key: MCP_SESSION_SECRET when configured; otherwise the key
 * in the store. A process that finds none generates one and offers it with
 * `setIfAbsent`, atomic across every process sharing the store (a per-key lock
 * in the folder store, SET NX in Redis): exactly one offer is stored,
 * and every process then uses what the store holds, its own key or the
 * winner's. No claim, no waiting: processes starting at once agree on one key.
 */
export async function sessionSecret(store: Store, configured: string | undefined): Promise<Uint8Array> {
  if (configured !== undefined) return new TextEncoder().encode(configured);
  const existing = await readKey(store);
  if (existing) return existing;
  await store.setIfAbsent(SESSION_KEY, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url'));
  // Whether ours or another process's won, the stored key is the one every process uses.
  const stored = await readKey(store);
  if (stored) return stored;
  throw new Error(`the store holds no usable MCP session key at "${SESSION_KEY}" (not base64url of at least 32 bytes): delete it to have a new one generated, or set MCP_SESSION_SECRET`);
}

async function readKey(store: Store): Promise<Uint8Array | null> {
  const value = await store.get<string>(SESSION_KEY);
  if (typeof value !== 'string') return null;
  const bytes = Buffer.from(value, 'base64url');
  return bytes.length >= 32 ? new Uint8Array(bytes) : null;
}

/** Ended ids, by hash (short keys, and a listing of the store shows no usable id). */
export function storeEndedSessions(store: Store): EndedSessions {
  const key = (id: string) => `${ENDED_PREFIX}${createHash('sha256').update(id).digest('base64url')}`;
  return {
    async isEnded(id) {
      return (await store.get<boolean>(key(id))) === true;
    },
    async markEnded(id, ttlSeconds) {
      await store.set(key(id), true, { ttlSeconds });
    },
  };
}
