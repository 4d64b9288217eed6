/**
 * The GitHub login of the web form, served by the site itself on every host
 * (Node, Netlify, Vercel): Decap's GitHub backend opens /admin/auth in a
 * window, which sends the editor to GitHub; GitHub sends them back to
 * /admin/callback with a code, which is exchanged here for a token with the
 * OAuth app's secret (a host setting, never in a page), and the token is handed
 * to the form by Decap's postMessage handshake, to this site's origin only.
 *
 * A random `state`, kept in a short-lived HttpOnly cookie, must come back from
 * GitHub unchanged: a callback this browser did not start is refused.
 *
 * Settings, read when a request comes (the host's environment):
 * - GITHUB_OAUTH_CLIENT_ID, GITHUB_OAUTH_CLIENT_SECRET: the OAuth app's (docs/editing.md);
 * - GITHUB_OAUTH_URL: GitHub's address (default https://github.com; GitHub Enterprise, tests).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

const STATE_COOKIE = 'cms_oauth_state';
const STATE_MAX_AGE_S = 600;
const TOKEN_TIMEOUT_MS = 10_000;
/** The scopes Decap asks for: `repo` (a private repository) or `public_repo`. */
const SCOPES = new Set(['repo', 'public_repo']);

export interface OAuthSettings {
  clientId: string;
  clientSecret: string;
  githubUrl: string;
}

export function oauthSettingsFromEnv(env: Record<string, string | undefined> = process.env): OAuthSettings | null {
  const clientId = env.GITHUB_OAUTH_CLIENT_ID?.trim();
  const clientSecret = env.GITHUB_OAUTH_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) return null;
  const githubUrl = (env.GITHUB_OAUTH_URL?.trim() || 'https://github.com').replace(/\/+$/, '');
  return { clientId, clientSecret, githubUrl };
}

/** GET /admin/auth?provider=github&scope=repo: off to GitHub's consent page, with a fresh state. */
export function beginLogin(request: Request, site: URL, settings: OAuthSettings | null): Response {
  if (!settings) return notSetUp();
  const url = new URL(request.url);
  const provider = url.searchParams.get('provider') ?? 'github';
  if (provider !== 'github')
    return page(400, 'This login only knows GitHub.', { error: `unknown provider "${provider}"` });
  const scope = url.searchParams.get('scope') ?? 'repo';
  if (!SCOPES.has(scope))
    return page(400, 'The form asked for a scope this login does not give.', { error: 'bad scope' });
  const state = randomBytes(24).toString('base64url');
  const authorize = new URL('/login/oauth/authorize', settings.githubUrl);
  authorize.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: callbackUrl(site),
    scope,
    state,
  }).toString();
  return new Response(null, {
    status: 302,
    headers: {
      location: authorize.href,
      'set-cookie': stateCookie(state, STATE_MAX_AGE_S, site),
      'cache-control': 'no-store',
    },
  });
}

/** GET /admin/callback?code=…&state=…: the code exchanged for a token, handed to the form. */
export async function finishLogin(
  request: Request,
  site: URL,
  settings: OAuthSettings | null,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  if (!settings) return notSetUp();
  const url = new URL(request.url);
  const denied = url.searchParams.get('error');
  if (denied) return page(400, 'GitHub did not log you in. Close this window and try again.', { error: denied }, site);
  const code = url.searchParams.get('code');
  const state = url.searchParams.get('state');
  const expected = cookie(request.headers.get('cookie'), STATE_COOKIE);
  if (!code || !state || !expected || !sameText(state, expected)) {
    return page(
      400,
      'This login was not started from this browser, or it took too long. Close this window and click Login again.',
      { error: 'state mismatch' },
      site,
    );
  }
  let token: string | undefined;
  let problem = 'GitHub gave no token';
  try {
    const response = await fetchImpl(new URL('/login/oauth/access_token', settings.githubUrl), {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        code,
        redirect_uri: callbackUrl(site),
      }),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    const answer = (await response.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
    if (typeof answer.access_token === 'string' && answer.access_token) token = answer.access_token;
    else if (typeof answer.error === 'string') problem = answer.error;
    else problem = `GitHub answered ${response.status}`;
  } catch (error) {
    problem = `GitHub could not be reached (${(error as Error).name})`;
  }
  if (!token)
    return page(
      502,
      `GitHub did not log you in (${problem}). Close this window and try again.`,
      { error: problem },
      site,
    );
  return page(200, 'Logged in. This window closes by itself.', { token }, site);
}

function callbackUrl(site: URL): string {
  return new URL('/admin/callback', site).href;
}

function stateCookie(value: string, maxAge: number, site: URL): string {
  const secure = site.protocol === 'https:' ? '; Secure' : '';
  return `${STATE_COOKIE}=${value}; Path=/admin/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

function cookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function notSetUp(): Response {
  return page(
    503,
    'The GitHub login of this site is not set up: its host needs the settings GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET (see docs/editing.md).',
    { error: 'not set up' },
  );
}

/**
 * The window's page: a sentence for the editor and, with `site`, Decap's
 * handshake. The window says "authorizing:github" to the form, which answers;
 * then the result goes to the form, and only to a page of this site's origin.
 */
function page(status: number, text: string, result: { token: string } | { error: string }, site?: URL): Response {
  const outcome =
    'token' in result
      ? `authorization:github:success:${JSON.stringify({ token: result.token, provider: 'github' })}`
      : `authorization:github:error:${JSON.stringify({ message: result.error })}`;
  // JSON in a script: `<` escaped, so no value can close the element.
  const json = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');
  const script = site
    ? `<script>
(() => {
  const origin = ${json(site.origin)};
  const outcome = ${json(outcome)};
  if (!window.opener) return;
  window.addEventListener('message', function answer(event) {
    if (event.origin !== origin || event.data !== 'authorizing:github') return;
    window.removeEventListener('message', answer);
    window.opener.postMessage(outcome, origin);
  });
  window.opener.postMessage('authorizing:github', origin);
})();
</script>`
    : '';
  const escaped = text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Reviews · editor login</title></head>
<body><p>${escaped}</p>${script}</body>
</html>
`;
  const headers: Record<string, string> = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  };
  // The state is used once: the callback clears it, whatever the outcome.
  if (site) headers['set-cookie'] = stateCookie('', 0, site);
  return new Response(body, { status, headers });
}
