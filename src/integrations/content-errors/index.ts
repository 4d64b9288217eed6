/**
 * In `astro dev` only: while the content folder has mistakes, a page that is
 * asked for shows them all as a page of the site (page.astro, status 500), not
 * Astro's error overlay, which is for code errors. The build needs none of it:
 * there a content mistake fails the build with the same list (ContentError's message).
 *
 * The request is redirected inside the dev server before Astro routes it: a
 * page of a dynamic route (/reviews/page/1) lists its paths from the content
 * before any Astro middleware runs, and would fail there.
 */
import type { AstroIntegration } from 'astro';
import { contentProblemInDev } from '../../lib/content/live-content.ts';

const CONTENT_ERRORS_ROUTE = '/_content-errors';

// Not pages: the form, Vite's and Astro's own requests, the API and MCP, and files (/reviews.json, /feed.xml).
const NOT_PAGES = /^\/(?:admin(?:\/|$)|_|@|node_modules\/|src\/|api(?:\/|$)|mcp(?:\/|$))|\.[a-z0-9]+$/i;

export function contentErrorsInDev(): AstroIntegration {
  return {
    name: 'roofing-reviews:content-errors',
    hooks: {
      'astro:config:setup': ({ command, injectRoute }) => {
        if (command !== 'dev') return;
        injectRoute({
          pattern: CONTENT_ERRORS_ROUTE,
          entrypoint: new URL('./page.astro', import.meta.url),
          prerender: false,
        });
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((req, _res, next) => {
          const path = (req.url ?? '/').split('?')[0]!;
          if (contentProblemInDev() && (req.method === 'GET' || req.method === 'HEAD') && !NOT_PAGES.test(path))
            req.url = CONTENT_ERRORS_ROUTE;
          next();
        });
      },
    },
  };
}
