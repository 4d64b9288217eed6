/**
 * A local server answering as the Business Profile API documents: the OAuth
 * token endpoint (refresh token `good-refresh` → access token `ya29.fresh`),
 * `accounts.locations.reviews.list`, pages of at most 50 followed by
 * `nextPageToken`, and the Business Information API's `locations.get` of a
 * location's title. Google itself cannot be reached from tests.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { googleListPage, type GoogleReview } from './exports.ts';

export interface GoogleStandIn {
  /** http://127.0.0.1:<port>: GOOGLE_API_BASE, and `${base}/token` for GOOGLE_TOKEN_URL. */
  base: string;
  /** Every request, in order. */
  requests: Array<{ path: string; auth?: string; body?: string }>;
  /** Each location's reviews, as Google's list answers them; change them between runs. */
  reviews: Record<string, GoogleReview[]>;
  /** Titles by location id (`11`); a location without one answers 403, as when that API is not enabled. */
  titles: Record<string, string>;
  close(): Promise<void>;
}

export async function startGoogleStandIn(reviews: Record<string, GoogleReview[]>): Promise<GoogleStandIn> {
  const requests: GoogleStandIn['requests'] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url!, 'http://localhost');
    requests.push({
      path: url.pathname + url.search,
      ...(req.headers.authorization ? { auth: req.headers.authorization } : {}),
      ...(body ? { body } : {}),
    });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(value));
    };
    if (url.pathname === '/token') {
      const form = new URLSearchParams(body);
      if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'good-refresh')
        return send(200, {
          access_token: 'ya29.fresh',
          expires_in: 3599,
          scope: 'https://www.googleapis.com/auth/business.manage',
          token_type: 'Bearer',
        });
      return send(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    }
    const info = /^\/v1\/locations\/(\d+)$/.exec(url.pathname);
    if (info) {
      const title = standIn.titles[info[1]!];
      if (req.headers.authorization !== 'Bearer ya29.fresh' || !title || url.searchParams.get('readMask') !== 'title')
        return send(403, {
          error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' },
        });
      return send(200, { title });
    }
    const match = /^\/v4\/(accounts\/\d+\/locations\/\d+)\/reviews$/.exec(url.pathname);
    if (!match)
      return send(404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
    if (req.headers.authorization !== 'Bearer ya29.fresh')
      return send(401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    const all = standIn.reviews[match[1]!];
    if (!all)
      return send(404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
    const size = Math.min(50, Number(url.searchParams.get('pageSize') ?? 50));
    const from = Number(url.searchParams.get('pageToken') ?? '0');
    const page = all.slice(from, from + size);
    return send(
      200,
      googleListPage(page, {
        totalReviewCount: all.length,
        ...(from + size < all.length ? { nextPageToken: String(from + size) } : {}),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const standIn: GoogleStandIn = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    reviews,
    titles: {},
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return standIn;
}
