/** The configured site (SITE_URL at build time) as an origin, the form src/lib takes. */
export function astroSite(): string {
  return new URL(import.meta.env.SITE).origin;
}
