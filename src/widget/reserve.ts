/**
 * The height a widget will take, as CSS, from its layout and `limit` alone:
 * the snippet puts it on the element (`min-height`), so the page keeps the
 * widget's space from its first paint, before widget.js has run and before
 * the data has come. The figures are styles.ts's lines and spacing, in the
 * element's own `em` (the snippet sets the widget's text size on it), at the narrow
 * width where the header takes most lines; the box stretches to fill it.
 */
import type { Layout } from './options.ts';

/** [em, px]: lines and padding scale with the text, borders do not. */
function size(layout: Layout, limit: number): [number, number] {
  const frame = 2; // the box's padding
  const head = 3.375 + 3 + 0.75; // name on two lines, stars and count on two, then a gap
  const foot = 2.25; // "See all N reviews"
  const card = 12; // seven lines and padding (grid, carousel)
  switch (layout) {
    case 'badge':
      return [2.3, 2];
    case 'collector':
      return [3.75, 0];
    case 'list':
      return [frame + head + 12 * limit + 1.5, limit + 2];
    case 'compact':
      return [frame + head + 7.5 * limit + 1.5, limit + 2];
    case 'grid':
      // One row of cards, the rest a swipe away; room for a horizontal scrollbar.
      return [frame + head + card + 1 + foot, 4];
    case 'carousel':
      return [frame + head + 3.5 + card + foot, 4];
  }
}

export function reservedHeight(layout: Layout, limit: number): string {
  const [em, px] = size(layout, limit);
  return `calc(${Number(em.toFixed(3))}em + ${px}px)`;
}
