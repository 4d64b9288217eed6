/**
 * Every review of some Business Profile locations, straight from the API
 * (`accounts.locations.reviews.list`, v4): pages of at most 50 followed by
 * `nextPageToken` to the end; and each location's title, for the report, from
 * the Business Information API (`locations.get`, v1) when the project may use it. OAuth: an access token as it is, or one obtained
 * from a refresh token (the installed-app flow's `client_id`, `client_secret`,
 * `refresh_token`), scope `https://www.googleapis.com/auth/business.manage`.
 */
import { isObject } from './fields.ts';

export class GoogleApiError extends Error {}

const GOOGLE_API_BASE = 'https://mybusiness.googleapis.com';
const GOOGLE_INFO_API_BASE = 'https://mybusinessbusinessinformation.googleapis.com';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const PAGE_SIZE = 50;
/** 50 reviews a page: 100,000 reviews a location before the loop calls it a runaway. */
const MAX_PAGES = 2000;
const LOCATION = /^accounts\/[^/\s]+\/locations\/[^/\s]+$/;

/**
 * The settings from the environment: GOOGLE_LOCATIONS (comma-separated), and GOOGLE_ACCESS_TOKEN
 * or GOOGLE_CLIENT_ID + GOOGLE_CLIENT_SECRET + GOOGLE_REFRESH_TOKEN; GOOGLE_API_BASE,
 * GOOGLE_INFO_API_BASE (the same as GOOGLE_API_BASE when only that is set) and GOOGLE_TOKEN_URL
 * for a server other than Google's.
 */
export function googleSettingsFromEnv(env: Record<string, string | undefined> = process.env) {
  const locations = (env.GOOGLE_LOCATIONS ?? '')
    .split(',')
    .map((l) => l.trim())
    .filter(Boolean);
  if (locations.length === 0)
    throw new GoogleApiError(
      'GOOGLE_LOCATIONS is not set: the locations to fetch, as accounts/<account id>/locations/<location id>, comma-separated',
    );
  const wrong = locations.find((l) => !LOCATION.test(l));
  if (wrong)
    throw new GoogleApiError(`GOOGLE_LOCATIONS: "${wrong}" is not accounts/<account id>/locations/<location id>`);
  const accessToken = env.GOOGLE_ACCESS_TOKEN?.trim() || undefined;
  const [clientId, clientSecret, refreshToken] = [
    env.GOOGLE_CLIENT_ID,
    env.GOOGLE_CLIENT_SECRET,
    env.GOOGLE_REFRESH_TOKEN,
  ].map((v) => v?.trim() || undefined);
  if (!accessToken && !(clientId && clientSecret && refreshToken)) {
    throw new GoogleApiError(
      'no Google credentials: set GOOGLE_ACCESS_TOKEN, or GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REFRESH_TOKEN',
    );
  }
  return {
    locations,
    ...(accessToken ? { accessToken } : {}),
    ...(clientId && clientSecret && refreshToken ? { refresh: { clientId, clientSecret, refreshToken } } : {}),
    apiBase: (env.GOOGLE_API_BASE?.trim() || GOOGLE_API_BASE).replace(/\/+$/, ''),
    infoBase: (env.GOOGLE_INFO_API_BASE?.trim() || env.GOOGLE_API_BASE?.trim() || GOOGLE_INFO_API_BASE).replace(
      /\/+$/,
      '',
    ),
    tokenUrl: env.GOOGLE_TOKEN_URL?.trim() || GOOGLE_TOKEN_URL,
  };
}

type GoogleApiSettings = ReturnType<typeof googleSettingsFromEnv>;

async function accessToken(settings: GoogleApiSettings): Promise<string> {
  if (settings.accessToken) return settings.accessToken;
  const { clientId, clientSecret, refreshToken } = settings.refresh!;
  const response = await request(settings.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: clientId,
      client_secret: clientSecret,
      refresh_token: refreshToken,
    }),
  });
  const body = await response.json().catch(() => undefined);
  if (!response.ok || !isObject(body) || typeof body.access_token !== 'string') {
    const reason =
      isObject(body) && typeof body.error === 'string'
        ? `${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}`
        : `HTTP ${response.status}`;
    throw new GoogleApiError(
      `the refresh token was refused (${reason}): check GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REFRESH_TOKEN`,
    );
  }
  return body.access_token;
}

/**
 * Every review of each location, as one `{ reviews }` document per location (what Takeout's
 * reviews.json holds), with the location's title when the Business Information API gives it.
 */
export async function fetchGoogleReviews(settings: GoogleApiSettings) {
  const token = await accessToken(settings);
  const out: Array<{ location: string; title?: string; document: { reviews: unknown[] } }> = [];
  for (const location of settings.locations) {
    const reviews: unknown[] = [];
    const tokens = new Set<string>();
    let pageToken: string | undefined;
    for (let page = 1; ; page += 1) {
      if (page > MAX_PAGES) throw new GoogleApiError(`${location}: more than ${MAX_PAGES} pages; stopped`);
      const url = new URL(`${settings.apiBase}/v4/${location}/reviews`);
      url.searchParams.set('pageSize', String(PAGE_SIZE));
      if (pageToken) url.searchParams.set('pageToken', pageToken);
      const response = await request(url.href, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      const body = await response.json().catch(() => undefined);
      if (!response.ok) throw new GoogleApiError(`${location}: page ${page}: ${apiError(response.status, body)}`);
      if (!isObject(body)) throw new GoogleApiError(`${location}: page ${page}: the answer is not a reviews list`);
      if (body.reviews !== undefined && !Array.isArray(body.reviews))
        throw new GoogleApiError(`${location}: page ${page}: "reviews" is not a list`);
      reviews.push(...((body.reviews as unknown[] | undefined) ?? []));
      pageToken = typeof body.nextPageToken === 'string' && body.nextPageToken !== '' ? body.nextPageToken : undefined;
      if (!pageToken) break;
      if (tokens.has(pageToken))
        throw new GoogleApiError(`${location}: page ${page}: the same nextPageToken came twice; stopped`);
      tokens.add(pageToken);
    }
    const title = await locationTitle(settings, token, location);
    out.push({ location, ...(title ? { title } : {}), document: { reviews } });
  }
  return out;
}

/**
 * A location's title (`locations.get`, readMask=title). Undefined when it cannot be had (that API
 * not enabled for the project, say): a title only helps read the report, which then names the
 * location by its id, or by the title an earlier Takeout import gave.
 */
async function locationTitle(settings: GoogleApiSettings, token: string, location: string) {
  const id = location.split('/').at(-1)!;
  try {
    const response = await fetch(`${settings.infoBase}/v1/locations/${encodeURIComponent(id)}?readMask=title`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    const body: unknown = await response.json().catch(() => undefined);
    return response.ok && isObject(body) && typeof body.title === 'string' && body.title.trim() !== ''
      ? body.title
      : undefined;
  } catch {
    return undefined;
  }
}

async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new GoogleApiError(`${new URL(url).origin} could not be reached: ${(error as Error).message}`);
  }
}

function apiError(status: number, body: unknown): string {
  const error = isObject(body) && isObject(body.error) ? body.error : undefined;
  const message = error && typeof error.message === 'string' ? `: ${error.message}` : '';
  if (status === 401)
    return `HTTP 401, the access token was refused${message} (expired? a refresh token gets a new one)`;
  if (status === 403)
    return `HTTP 403, no permission${message} (the account must manage this verified location; scope business.manage)`;
  if (status === 404) return `HTTP 404, no such location${message}`;
  return `HTTP ${status}${message}`;
}
