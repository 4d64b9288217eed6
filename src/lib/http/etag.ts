/** A strong entity tag from the bytes themselves: the same content always has the same tag. */
import { createHash } from 'node:crypto';

export function strongEtag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}
