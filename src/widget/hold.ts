/**
 * What keeps the host page still while the widget's content changes size:
 * the element's own height, held as its min-height across each swap (the
 * snippet's reservation, then the loading placeholders), and let go of only
 * when the spot just below the element is off screen. Then what follows the
 * widget is either below the screen, where moving it shows nothing, or above
 * it, where the browser's scroll anchoring keeps what is on screen in place
 * (without scroll anchoring, Safari, the hold waits for the former).
 * So the widget's box always takes its content's height, and the spare room
 * of a reservation stays beneath it, as page background, until then.
 */
import { h } from './dom.ts';

export interface Hold {
  /** Holds the element's present height (before its content is replaced). */
  keep(): void;
  /** After the content is replaced: lets the height follow it once nothing after the element is on screen. */
  releaseWhenOffScreen(root: ShadowRoot): void;
  release(): void;
}

export function holdHeight(element: HTMLElement): Hold {
  let held = false;
  let stop = () => {};
  const release = () => {
    stop();
    if (held) element.style.minHeight = '';
    held = false;
  };
  const hold: Hold = {
    keep() {
      stop();
      const height = element.getBoundingClientRect().height;
      held ||= height > 0;
      if (held) element.style.minHeight = `${height}px`;
    },
    releaseWhenOffScreen(root) {
      if (!held) return;
      // The element's bottom edge: where what follows it starts.
      const edge = h('div', { class: 'edge' });
      root.append(edge);
      const observer = new IntersectionObserver((entries) => {
        const entry = entries[entries.length - 1]!;
        const above = entry.boundingClientRect.top < 0;
        if (!entry.isIntersecting && (!above || CSS.supports('overflow-anchor', 'auto'))) release();
      });
      observer.observe(edge);
      stop = () => {
        observer.disconnect();
        edge.remove();
        stop = () => {};
      };
    },
    release,
  };
  hold.keep();
  return hold;
}
