/**
 * What MCP sessions keep in the shared store: the signing key when none is
 * configured, and the ids that DELETE ended (until they would have expired).
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store/store.ts';
import type { EndedSessions } from './session-ids.ts';

export const SESSION_KEY = 'mcp:session-key';
const ENDED_PREFIX = 'mcp:ended:';

/**
 * The session signing key: MCP_SESSION_SECRET when configured; otherwise the
 * key in the store, read on every use so that every instance signs and checks
 * with the one key the store holds: a process never keeps signing with a key
 * of its own once the store holds another.
 *
 * A process that finds none offers one with `setIfAbsent`, atomic across every
 * process sharing the store (a per-key lock in the folder store, SET NX in
 * Redis), then reads back what won. The offer is the key this process was
 * using, if any: when Redis lost its data (a restart without persistence, an
 * eviction) the running instances put the same key back and their sessions
 * live on; a new instance's fresh key wins only if it offers first, and then
 * every instance adopts it on its next read. Both are logged.
 *
 * A key that is present but unusable (not base64url of 32+ bytes, or a
 * corrupt file) is an error, never silently replaced: every session would die.
 */
export function sessionKeySource(store: Store, configured: string | undefined): () => Promise<Uint8Array> {
  if (configured !== undefined) {
    const fixed = new TextEncoder().encode(configured);
    return async () => fixed;
  }
  let known: string | undefined;
  return async () => {
    let value = await readKey(store);
    if (value === null) {
      const offer = known ?? Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
      const stored = await store.setIfAbsent(SESSION_KEY, offer);
      if (stored && known !== undefined)
        console.error(
          `mcp: the session key was missing from the store at "${SESSION_KEY}" (Redis flushed or evicted?); stored this process's key again`,
        );
      // Whether ours or another process's won, the stored key is the one every process uses.
      value = await readKey(store);
      if (value === null)
        throw new Error(`the store holds no MCP session key at "${SESSION_KEY}" right after one was offered`);
    }
    if (known !== undefined && value !== known)
      console.error(
        `mcp: the session key in the store at "${SESSION_KEY}" changed; adopting it (sessions signed with the old key end)`,
      );
    known = value;
    return new Uint8Array(Buffer.from(value, 'base64url'));
  };
}

/** The signing key once (see sessionKeySource). */
export async function sessionSecret(store: Store, configured: string | undefined): Promise<Uint8Array> {
  return sessionKeySource(store, configured)();
}

/** The stored key (base64url), null when absent; an error when present but unusable. */
async function readKey(store: Store): Promise<string | null> {
  const value = await store.get<unknown>(SESSION_KEY, { corrupt: 'throw' });
  if (value === null) return null;
  if (typeof value !== 'string' || Buffer.from(value, 'base64url').length < 32) {
    throw new Error(
      `the store holds no usable MCP session key at "${SESSION_KEY}" (not base64url of at least 32 bytes): delete it to have a new one generated, or set MCP_SESSION_SECRET`,
    );
  }
  return value;
}

/** Ended ids are kept in one set per hour of their expiry: a few records, however many sessions end. */
const BUCKET_SECONDS = 3600;
const PER_ID_KEY = /^mcp:ended:[A-Za-z0-9_-]{43}$/;

/**
 * Ended ids, by hash (short members, and a listing of the store shows no
 * usable id), in the set of the hour the id expires in. An id needs keeping
 * only until it would have expired anyway (its expiry is signed into it), so
 * each set lives until its latest member's expiry and then goes as a whole.
 */
export function storeEndedSessions(store: Store): EndedSessions {
  const bucket = (expiresAt: number) => `${ENDED_PREFIX}${Math.floor(expiresAt / BUCKET_SECONDS)}`;
  const hash = (id: string) => createHash('sha256').update(id).digest('base64url');
  const member = (id: string) => hash(id).slice(0, 22);
  // Earlier versions kept one marker per ended id (`mcp:ended:<sha256>`); while any is live, it is honoured too.
  let perId: Promise<boolean> | undefined;
  const anyPerIdMarker = () => {
    perId ??= store.keys(ENDED_PREFIX).then((keys) => keys.some((key) => PER_ID_KEY.test(key)));
    // A store out of reach is asked again next time.
    perId.catch(() => (perId = undefined));
    return perId;
  };
  return {
    isEnded: async (id, expiresAt) =>
      (await store.hasMember(bucket(expiresAt), member(id))) ||
      ((await anyPerIdMarker()) && (await store.get<boolean>(`${ENDED_PREFIX}${hash(id)}`)) === true),
    markEnded: (id, expiresAt, ttlSeconds) => store.addMember(bucket(expiresAt), member(id), ttlSeconds),
  };
}
