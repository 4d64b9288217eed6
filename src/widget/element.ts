/**
 * <roofing-reviews>: a guest on someone else's page. It renders into its own
 * shadow root, reads its attributes again whenever one changes, and never
 * lets an error escape into the host page: a bad attribute, an unreachable
 * service or a 5xx shows the fallback link and logs one console warning.
 *
 * Keeping the page still while it loads: the element keeps the height it had
 * (the snippet's reservation, reserve.ts) as its min-height across each swap
 * of content, and lets go of what the reviews do not use only once nothing
 * after it is on screen (hold.ts). Re-renders the page asks for by changing
 * an attribute follow the content at once: that change is the page's own.
 */
import type { SiteLinks } from '../lib/feeds/links.ts';
import { LoadError, loadWidgetData } from './data.ts';
import { holdHeight, type Hold } from './hold.ts';
import {
  describeProblem,
  readOptions,
  WIDGET_ATTRIBUTES,
  type AttributeProblem,
  type WidgetOptions,
} from './options.ts';
import { renderFallback, renderLoading, renderReviews } from './render.ts';
import { widgetStyles } from './styles.ts';

const WARNING_PREFIX = '<roofing-reviews>:';

export function defineRoofingReviews(links: SiteLinks): void {
  class RoofingReviews extends HTMLElement {
    static observedAttributes = [...WIDGET_ATTRIBUTES];
    readonly #root: ShadowRoot;
    /** Which render is current: an older one that finishes late is dropped. */
    #generation = 0;
    #scheduled = false;
    #options: WidgetOptions | undefined;
    #hold: Hold | undefined;

    constructor() {
      super();
      // Measured before the shadow root hides the snippet's fallback, which may be taller than the reservation.
      if (this.isConnected) this.#hold = holdHeight(this);
      this.#root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      this.#root.adoptedStyleSheets = [widgetStyles()];
    }

    connectedCallback(): void {
      this.#hold ??= holdHeight(this);
      this.#schedule();
    }

    disconnectedCallback(): void {
      this.#hold?.release();
      this.#hold = undefined;
    }

    attributeChangedCallback(): void {
      // An upgrade reports the snippet's own attributes first: those are no change.
      if (!this.isConnected || this.#generation === 0) return;
      this.#hold?.release();
      this.#hold = undefined;
      this.#schedule();
    }

    /** Several attributes set in one task (the owner's page, a framework) render once. */
    #schedule(): void {
      if (this.#scheduled) return;
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        this.#render().catch((error: unknown) => this.#fail(`could not render (${String(error)})`, this.#generation));
      });
    }

    /**
     * Replaces the shadow content inside the height held so far; the loading
     * placeholders stay in it, the final content lets go of what it does not use.
     */
    #show(content: HTMLElement, final = true): void {
      this.#hold?.keep();
      this.#root.replaceChildren(content);
      if (final) this.#hold?.releaseWhenOffScreen(this.#root);
    }

    async #render(): Promise<void> {
      const generation = ++this.#generation;
      const read = readOptions(this);
      this.#options = undefined;
      if (!read.ok) return this.#failAttribute(read.problem, generation);
      this.#options = read.options;
      this.#show(renderLoading(read.options), false);
      let result;
      try {
        result = await loadWidgetData(links, read.options);
      } catch (error) {
        return this.#fail(
          error instanceof LoadError ? error.message : `could not load the reviews (${String(error)})`,
          generation,
        );
      }
      if (generation !== this.#generation) return;
      if (!result.ok) return this.#failAttribute(result.problem, generation);
      this.#show(renderReviews(result.data, read.options, links));
    }

    #failAttribute(problem: AttributeProblem, generation: number): void {
      this.#fail(describeProblem(problem), generation);
    }

    #fail(reason: string, generation: number): void {
      if (generation !== this.#generation) return;
      this.#show(renderFallback(links, this.#options));
      console.warn(`${WARNING_PREFIX} ${reason}; showing a link to the reviews instead.`);
    }
  }

  // The snippet pasted twice, or two copies of widget.js, must not throw.
  if (!customElements.get('roofing-reviews')) customElements.define('roofing-reviews', RoofingReviews);
}
