/// <reference types="astro/client" />

/** The deploy target the build was made for (astro.config.mjs, src/hosts/target.ts). */
declare const __DEPLOY_TARGET__: 'node' | 'netlify' | 'vercel';

declare namespace App {
  interface Locals {
    /** Set by @astrojs/netlify in its function: the request's Netlify context (waitUntil, ip, deploy). */
    netlify?: import('@astrojs/netlify').NetlifyLocals['netlify'];
  }
}
