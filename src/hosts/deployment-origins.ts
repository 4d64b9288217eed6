/**
 * The names one deployment answers under besides the site's own: Netlify's
 * deploy and preview URLs, Vercel's per-deployment and per-branch URLs. The
 * hosts set these variables in the function's environment at run time, so a
 * preview's /mcp passes the Host and Origin checks with no extra setting.
 * Production names come from SITE_URL, which the build bakes.
 */
type Env = Record<string, string | undefined>;

/** Variables holding a full URL (Netlify) or a bare host name (Vercel). */
const URL_VARIABLES = ['DEPLOY_PRIME_URL', 'DEPLOY_URL'];
const HOST_VARIABLES = ['VERCEL_URL', 'VERCEL_BRANCH_URL', 'VERCEL_PROJECT_PRODUCTION_URL'];

/** Origins (`https://name`) of this deployment as the host names it. */
export function deploymentOrigins(env: Env): string[] {
  const origins = new Set<string>();
  const add = (raw: string | undefined, bare: boolean) => {
    const value = raw?.trim();
    // A malformed host variable adds nothing; the site's own name still works.
    const url = value ? URL.parse(bare ? `https://${value}` : value) : null;
    if (url) origins.add(url.origin);
  };
  for (const name of URL_VARIABLES) add(env[name], false);
  for (const name of HOST_VARIABLES) add(env[name], true);
  return [...origins];
}
