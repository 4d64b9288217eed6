/**
 * The room a widget will take, as CSS, from its layout and `limit` alone.
 * The snippet puts it on the element's fallback link, so the page keeps the
 * widget's space from its first paint, before widget.js has run and before
 * the data has come.
 *
 * It is the most the layout can take at the element's width: styles.ts's
 * lines and spacing, in the element's own `em`, with every review at its
 * longest. The part that does not depend on the width is the link's
 * `min-height`; the part that does (a narrow box's header takes two more
 * lines, the grid's rows follow its columns, the badge and the button wrap
 * on a phone) is its `padding-bottom`, whose percentages are of the
 * element's width: one step `clamp(0px, (threshold - 100%) * 9999, height)`
 * each. (Plain CSS of the kind the Nu Html Checker knows, so the owner's page
 * stays valid, and no container that would collapse the badge in a flex row.)
 * The widget then only ever shrinks into this room, never grows out of it
 * (hold.ts keeps the page still meanwhile).
 */
import { LABELS, type Locale } from './locales/index.ts';
import type { Layout } from './options.ts';

/** A length as em + px: lines and padding scale with the text, borders do not. */
type Length = [em: number, px: number];
/** `length` is added while the element is narrower than `below`. */
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

/** What the labels will say, as far as the snippet knows it. */
export interface ReservedFigures {
  reviewCount?: number;
  /** The platform of the business's review link (business.yaml's `write_review`). */
  platform?: string;
}

/**
 * The width of a label, in em: characters as wide as DejaVu Sans's (one of
 * the widest system fonts) average, measured at 0.51–0.55em a character, or
 * 0.57–0.62em in bold.
 */
const textWidth = (label: string, bold = false) => label.length * (bold ? 0.62 : 0.56);

/** A line of `length` more where the element is narrower than `width` em (and 1px, against rounding). */
const wrap = (width: number, length: number): Step => ({ below: [Number(width.toFixed(2)), 1], length: [length, 0] });

function room(
  layout: Layout,
  limit: number,
  locale: Locale,
  figures: ReservedFigures,
): { base: Length; steps: Step[] } {
  const labels = LABELS[locale];
  // A digit more than today's count, so the count may grow.
  const n = new Intl.NumberFormat(locale).format(figures.reviewCount === undefined ? 10_000 : figures.reviewCount * 10);
  const count = textWidth(labels.reviews(2, n));
  const frame = FRAME[0];
  const head = (rest: Length, steps: Step[] = []) => ({
    base: add(FRAME, [HEAD + FOOT, 0], rest),
    // Where the count, on its own line in a narrow box, or "See all" do not fit, they take another line.
    steps: [NARROW_HEAD, wrap(frame + count, LINE), wrap(frame + textWidth(labels.seeAll(n)), LINE), ...steps],
  });
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
    case 'badge': {
      // Stars and rating (9.1em with the padding), then the count; on a second line, then on a third.
      const padding = 1.6;
      return { base: [LINE + 0.8, 2], steps: [wrap(9.1 + count, LINE), wrap(padding + count, LINE)] };
    }
    case 'collector': {
      // A button of 2.75em (padded) for one line of its label, 1.5em more for each line past that.
      const label = textWidth(labels.reviewUs(figures.platform ?? 'Trustpilot'), true);
      const padding = 4.75;
      return { base: [2.75 + 1, 0], steps: [wrap(padding + label, LINE), wrap(padding + label * 0.65, LINE)] };
    }
  }
}

export interface Reservation {
  /** The element's style: a block, in the widget's text size. */
  element: string;
  /** The fallback link's style, which holds the room. */
  link: string;
}

export function reservation(layout: Layout, limit: number, locale: Locale, figures: ReservedFigures = {}): Reservation {
  const { base, steps } = room(layout, limit, locale, figures);
  const stepped = steps.map(({ below, length }) => `clamp(0px, (${css(below)} - 100%) * 9999, ${css(length)})`);
  return {
    element: 'display:block;font-size:var(--roofing-reviews-font-size,medium)',
    link: `display:block;font-size:inherit;min-height:calc(${css(base)})${
      stepped.length ? `;padding-bottom:calc(${stepped.join(' + ')})` : ''
    }`,
  };
}
