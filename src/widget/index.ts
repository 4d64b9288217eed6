/**
 * widget.js: the script of the embed snippet
 *
 *   <script type="module" src="{site}/widget.js"></script>
 *   <roofing-reviews limit="3"><a href="{site}/">Read our verified customer reviews</a></roofing-reviews>
 *
 * The site is where this module was loaded from, so one build serves any
 * host name it is reached by. Bundled and minified at build time by
 * src/pages/widget.js.ts; docs/widget.md is the owner's guide.
 */
import { siteLinks } from '../lib/feeds/links.ts';
import { defineRoofingReviews } from './element.ts';

// A browser without custom elements or constructable stylesheets keeps the snippet's fallback link.
const capable =
  typeof customElements !== 'undefined' &&
  typeof ShadowRoot !== 'undefined' &&
  'adoptedStyleSheets' in ShadowRoot.prototype;
try {
  if (!capable) throw new Error('custom elements with constructable stylesheets are needed');
  defineRoofingReviews(siteLinks(new URL(import.meta.url).origin));
} catch (error) {
  console.warn(`<roofing-reviews>: this browser cannot show the widget (${String(error)}); the fallback link stays.`);
}
