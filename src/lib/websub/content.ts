/**
 * Where the hub takes a topic's content: exactly the bytes and content type
 * the site serves. On the Node server, the static files already in memory; in
 * a function, rendered from the dataset (rendered-content.ts) or a GET of the
 * site's own public URL.
 */
import { HUB_USER_AGENT } from './config.ts';

export interface TopicContent {
  body: Buffer;
  contentType: string;
  /** The hex SHA-256 of `body`, when the source knows it without reading it (the Node server: the build's manifest). */
  sha256?: string;
}

export type ContentSource = (path: string) => Promise<TopicContent | undefined>;

/** GETs `origin + path` (the site's own configured origin, never one taken from a request). */
export function httpContentSource(origin: string, timeoutMs: number): ContentSource {
  return async (path) => {
    const response = await fetch(new URL(path, origin), {
      headers: { 'accept-encoding': 'identity', 'cache-control': 'no-cache', 'user-agent': HUB_USER_AGENT },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return {
      body: Buffer.from(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    };
  };
}
