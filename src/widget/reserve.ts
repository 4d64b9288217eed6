/**
 * The room a widget will take, as CSS, from its layout and `limit` alone.
 * The snippet puts it on the element's fallback link (`min-height`), so the
 * page keeps the widget's space from its first paint, before widget.js has
 * run and before the data has come.
 *
 * It is the most the layout can take at the element's width: styles.ts's
 * lines and spacing, in the element's own `em`, with every review at its
 * longest. The width comes in through `cqi` (the snippet makes the element a
 * size container, the way the widget's box is one): a narrow box's header
 * takes two more lines, and the grid's rows follow its columns, each as a
 * step `clamp(0px, (threshold - 100cqi) * 9999, rows)`. The one-line badge
 * and button are no containers (that would collapse them in a flex row of
 * the owner's page), so their wrap on a phone is told by the viewport. The
 * widget then only ever shrinks into this room, never grows out of it
 * (hold.ts keeps the page still meanwhile).
 */
import { LABELS, type Locale } from './locales/index.ts';
import { showsReviews, type Layout } from './options.ts';

/** A length as em + px: lines and padding scale with the text, borders do not. */
type Length = [em: number, px: number];
/** `length` is added while the width is below `below` (in `unit`). */
interface Step {
  below: Length;
  length: Length;
}

const LINE = 1.5;
const GAP = 0.75;
/** The box's padding and border. */
const FRAME: Length = [2, 2];
/** Name (1.125em text) on one line, stars and count, the "How reviews are verified" line, the gap. */
const HEAD = 1.125 * LINE + LINE + 0.5 + LINE + GAP;
/** On a narrow box (28em of content and less): name and count take two lines each. */
const NARROW_HEAD: Step = { below: [30, 3], length: [1.125 * LINE + LINE, 0] };
/** "See all N reviews", after its gap. */
const FOOT = GAP + LINE;
/** A card of the grid and the carousel: seven lines, padding and border. */
const CARD: Length = [7 * LINE + 1.5, 2];
/** The narrowest a grid column gets (styles.ts: minmax(min(100%, 15em), 1fr)). */
const COLUMN = 15;

const add = (...lengths: Length[]): Length => [
  lengths.reduce((sum, [em]) => sum + em, 0),
  lengths.reduce((sum, [, px]) => sum + px, 0),
];
const times = ([em, px]: Length, n: number): Length => [em * n, px * n];
const css = ([em, px]: Length) => (px ? `${Number(em.toFixed(4))}em + ${px}px` : `${Number(em.toFixed(4))}em`);

/** A review of the list (seven lines) or compact (four), its gap and separator; the gaps between them. */
const reviews = (lines: number, limit: number): Length =>
  add(times([lines * LINE + GAP, 1], limit), [(limit - 1) * GAP, 0]);

/** The grid's height in rows of cards, as steps: each column that does not fit adds the rows it would have taken. */
function grid(limit: number): { base: Length; steps: Step[] } {
  const row = add(CARD, [GAP, 0]);
  const rows = (columns: number) => Math.ceil(limit / columns);
  const steps: Step[] = [];
  for (let columns = limit; columns > 1; columns--) {
    const more = rows(columns - 1) - rows(columns);
    // `columns` fit from this width on: their widths, the gaps between them, the box's frame.
    if (more > 0)
      steps.push({ below: [columns * (COLUMN + GAP) - GAP + FRAME[0], FRAME[1] + 1], length: times(row, more) });
  }
  return { base: add(times(row, rows(limit)), [-GAP, 0]), steps };
}

/** What the badge and the button will say, as far as the snippet knows it. */
export interface ReservedFigures {
  reviewCount?: number;
  /** The platform of the business's review link (business.yaml's `write_review`). */
  platform?: string;
}

function room(
  layout: Layout,
  limit: number,
  locale: Locale,
  figures: ReservedFigures,
): { base: Length; steps: Step[] } {
  const head = (rest: Length, steps: Step[] = []) => ({
    base: add(FRAME, [HEAD + FOOT, 0], rest),
    steps: [NARROW_HEAD, ...steps],
  });
  const labels = LABELS[locale];
  const count = figures.reviewCount === undefined ? 10_000 : figures.reviewCount * 10;
  switch (layout) {
    case 'list':
      return head(reviews(7, limit));
    case 'compact':
      return head(reviews(4, limit));
    case 'grid': {
      const { base, steps } = grid(limit);
      return head(base, steps);
    }
    case 'carousel':
      // The rotation buttons and their gap, one card.
      return head(add([2.75 + GAP, 0], CARD));
    case 'badge':
      // One line of stars, rating and count, on two where the viewport may be narrower than it;
      // counted with a digit more than today's, so the count may grow.
      return {
        base: [LINE + 0.8, 2],
        steps: [
          {
            below: [oneLine(8.6, 0.54, labels.reviews(2, new Intl.NumberFormat(locale).format(count))), 0],
            length: [LINE, 0],
          },
        ],
      };
    case 'collector':
      return {
        base: [2.75 + 1, 0],
        steps: [
          { below: [oneLine(5.5, 0.58, labels.reviewUs(figures.platform ?? 'Trustpilot')), 0], length: [GAP, 0] },
        ],
      };
  }
}

/**
 * The width (em) a one-line badge or button needs, from its label (em per
 * character as measured in DejaVu Sans, one of the widest system fonts),
 * and 2em of the page's own side margins.
 */
const oneLine = (fixed: number, perCharacter: number, label: string) =>
  Number((fixed + perCharacter * label.length + 2).toFixed(1));

export interface Reservation {
  /** The element's style: a block, its text size, and a size container for the layouts with reviews. */
  element: string;
  /** The fallback link's style, which holds the room (with containers, first the widest for browsers without `cqi`). */
  link: string;
}

export function reservation(layout: Layout, limit: number, locale: Locale, figures: ReservedFigures = {}): Reservation {
  const { base, steps } = room(layout, limit, locale, figures);
  const container = showsReviews(layout);
  const unit = container ? '100cqi' : '100vw';
  const stepped = steps.map(({ below, length }) => ` + clamp(0px, (${css(below)} - ${unit}) * 9999, ${css(length)})`);
  const widest = add(base, ...steps.map((step) => step.length));
  return {
    element: `display:block;${container ? 'container-type:inline-size;' : ''}font-size:var(--roofing-reviews-font-size,medium)`,
    link: `display:block;font-size:inherit;${container ? `min-height:calc(${css(widest)});` : ''}min-height:calc(${css(base)}${stepped.join('')})`,
  };
}
