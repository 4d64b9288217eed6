/**
 * The on-demand routes the Node entry answers itself, straight from the src/lib
 * handlers (the same ones the thin Astro routes in src/pages wrap), and the
 * work it does once it is listening. One table, so every dynamic path, its
 * body limit and its handler are found in one place.
 */
import type { ApiContext } from '../lib/api/context.ts';
import { answerApi } from '../lib/api/routes.ts';
import type { ApiAnswer, ApiRequest } from '../lib/http/answer.ts';
import type { StaticFiles } from './static-files.ts';

export interface ClientInfo {
  /** The peer's IP address, for rate limits. */
  address: string;
}

/** A route answers either through a Web handler (Request → Response) or, on hot read-only paths, with a plain answer. */
export type DynamicRoute = {
  matches(pathname: string): boolean;
  /** Bodies above this are answered 413 before the handler runs (0: no body is read). */
  maxBodyBytes: number;
} & (
  | { handle(request: Request, client: ClientInfo): Promise<Response> | Response; answer?: never }
  | { answer(request: ApiRequest, client: ClientInfo): ApiAnswer; handle?: never }
);

export interface NodeServices {
  routes: DynamicRoute[];
  /** Runs once the server listens, when the new content is live (WebSub publishing). */
  onListening: Array<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  site: string;
  staticFiles: StaticFiles;
  api: ApiContext;
  env: Record<string, string | undefined>;
}

export async function createNodeServices(options: ServiceOptions): Promise<NodeServices> {
  const closers: Array<() => Promise<void>> = [];
  const routes: DynamicRoute[] = [
    // The REST API: search, since, and JSON 404/405 for the rest of /api/*.
    { matches: (path) => path.startsWith('/api/'), maxBodyBytes: 0, answer: (request) => answerApi(request, options.api) },
  ];
  return {
    routes,
    onListening: [],
    async close() {
      for (const close of closers) await close();
    },
  };
}
