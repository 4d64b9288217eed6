/**
 * The widget's one stylesheet, adopted by every shadow root (constructable
 * stylesheets are CSSOM, so a host page's CSP `style-src` does not block them
 * the way it would block a <style> element).
 *
 * Keeping the host page out: selectors never cross the shadow boundary, but
 * inherited properties do, so `.box` starts from `all: initial` and sets its
 * own font, colour and spacing. Only the documented `--roofing-reviews-*`
 * custom properties (custom properties inherit, and `all` leaves them alone)
 * and the ::part()s (docs/widget.md) come in from outside, on purpose.
 *
 * Keeping the page still: the box is an inline-size container, so its content
 * never widens the host's column (a grid track, a flex item) and narrow
 * layouts are chosen by the box's own width, not the viewport's. Every line
 * is `--_lh` high and every review has at most a set number of lines (text
 * clamped); the reviews take their text's height, and the loading
 * placeholders ([aria-busy], render.ts) the most they can take at the box's
 * width, so the box only ever shrinks when the reviews come (hold.ts keeps
 * the page still meanwhile). The carousel's slides share one grid cell, as
 * high as the tallest of them, so a turn never moves the page. Heights stay
 * minimums where text may be respaced (WCAG 1.4.12), so such overrides grow
 * the box instead of clipping it.
 */
const dark = `--_bg:var(--roofing-reviews-bg,#1b1f24);--_fg:var(--roofing-reviews-fg,#f4f1ec);--_muted:var(--roofing-reviews-muted,#b9c1c9);
--_accent:var(--roofing-reviews-accent,#f3b58c);--_star:var(--roofing-reviews-star,#f5b83d);--_empty:var(--roofing-reviews-star-empty,#5b636c);
--_border:var(--roofing-reviews-border,#3d454e);--_focus:var(--roofing-reviews-focus,#93c5fd);--_cta:#f3b58c;--_cta-fg:#1b1f24;color-scheme:dark`;
const css = `
:host{display:block;position:relative;font-size:var(--roofing-reviews-font-size,medium);min-width:0;max-width:100%}
:host([hidden]){display:none}
::slotted(*){min-height:0!important;padding:0!important}
.box{all:initial;display:block;box-sizing:border-box;container-type:inline-size;max-width:100%;font:1em/1.5 var(--roofing-reviews-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);
--_bg:var(--roofing-reviews-bg,#fff);--_fg:var(--roofing-reviews-fg,#1b1f24);--_muted:var(--roofing-reviews-muted,#4a5560);
--_accent:var(--roofing-reviews-accent,#8a3b12);--_star:var(--roofing-reviews-star,#9a5b00);--_empty:var(--roofing-reviews-star-empty,#c9c1b6);
--_border:var(--roofing-reviews-border,#d9d3ca);--_focus:var(--roofing-reviews-focus,#1d4ed8);--_cta:#8a3b12;--_cta-fg:#fff;
--_lh:1.5em;--_gap:.75em;--_lines:7;--_item:calc(var(--_lines)*var(--_lh) + var(--_gap) + 1px);
color:var(--_fg);background:var(--_bg);border:1px solid var(--_border);border-radius:var(--roofing-reviews-radius,.5em);padding:1em;color-scheme:light}
.list,.compact,.grid,.carousel{display:flex;flex-direction:column}
.dark{${dark}}
@media (prefers-color-scheme:dark){.auto{${dark}}}
*,::before,::after{box-sizing:border-box}
p,ul,li{margin:0;padding:0}
ul{list-style:none}
a{color:var(--_accent);text-decoration:underline;text-underline-offset:.15em;border-radius:2px}
a:hover{text-decoration-thickness:2px}
a:focus-visible,button:focus-visible{outline:2px solid var(--_focus);outline-offset:2px}
.row{display:flex;align-items:center;gap:.5em;min-height:var(--_lh);line-height:var(--_lh);min-width:0}
.clip{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
.head{margin-bottom:var(--_gap)}
.name{font-weight:700;font-size:1.125em;line-height:var(--_lh);min-height:var(--_lh);overflow:hidden;overflow-wrap:anywhere;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:1}
.rating{display:flex;flex-wrap:wrap;align-items:center;column-gap:.5em;min-height:var(--_lh);line-height:var(--_lh)}
@container (max-width:28em){.name{-webkit-line-clamp:2}[aria-busy] .name{height:calc(2*var(--_lh))}[aria-busy] .rating{min-height:calc(2*var(--_lh))}}
.about{line-height:var(--_lh);height:var(--_lh);margin-top:.5em}
.value{font-weight:700}
.stars{position:relative;flex:none;line-height:1;letter-spacing:.05em;color:var(--_empty)}
.stars span{display:block;overflow:hidden;white-space:nowrap}
.stars .fill{position:absolute;top:0;left:0;color:var(--_star)}
.body{display:flex;flex-direction:column}
.list[aria-busy] .body,.compact[aria-busy] .body{min-height:calc(var(--_rows,3)*var(--_item) + (var(--_rows,3) - 1)*var(--_gap) + var(--_gap) + var(--_lh))}
.reviews{display:grid;gap:var(--_gap);align-content:start}
.review{position:relative;border-top:1px solid var(--_border);padding-top:var(--_gap);min-width:0}
.title{font-weight:700;line-height:var(--_lh);height:var(--_lh)}
.text{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:var(--_text-lines,4);overflow:hidden;overflow-wrap:anywhere;max-height:calc(var(--_text-lines,4)*var(--_lh));line-height:var(--_lh)}
.untitled{--_text-lines:5}
.compact{--_lines:4}
.compact .text{--_text-lines:2}
.grid .reviews{grid-template-columns:repeat(auto-fit,minmax(min(100%,15em),1fr))}
.grid .review,.carousel .review{display:flex;flex-direction:column;border:1px solid var(--_border);border-radius:.4em;padding:.75em}
.grid .review>:last-child,.carousel .review>:last-child{margin-top:auto}
.grid .ghost,.carousel .ghost{height:calc(7*var(--_lh) + 1.5em + 2px)}
.slides>*{grid-area:1/1}
.carousel .review[hidden]{display:flex;visibility:hidden}
.ghost{visibility:hidden}
.foot{margin-top:auto;padding-top:var(--_gap);line-height:var(--_lh);min-height:calc(var(--_lh) + var(--_gap))}
.muted,time{color:var(--_muted)}
.end{margin-left:auto;flex:none}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.edge{position:absolute;bottom:0;width:1px;height:1px;pointer-events:none}
.bar{display:inline-block;vertical-align:middle;height:.75em;width:10em;max-width:60%;border-radius:.25em;background:var(--_border)}
.badge,.collector{container-type:normal}
.badge{display:inline-flex;max-width:100%;padding:.4em .75em}
.badge .row{flex-wrap:wrap;gap:0 .5em}
.collector{display:inline-flex;max-width:100%;padding:.5em;border:0;background:transparent}
.cta{min-height:2.75em;display:flex}
.cta a,.cta.ghost{min-height:2.75em;padding:.625em 1.25em;border-radius:1.5em;background:var(--_cta);color:var(--_cta-fg);font-weight:700;text-decoration:none;text-align:center;overflow-wrap:anywhere}
.cta a::before{content:"★";margin-right:.4em}
.cta.ghost{align-items:center;width:14em;max-width:100%;background:var(--_border)}
.controls{display:flex;gap:.5em;margin-bottom:var(--_gap);min-height:2.75em}
.ctl{all:unset;box-sizing:border-box;display:inline-flex;align-items:center;justify-content:center;width:2.75em;height:2.75em;border:1px solid var(--_border);border-radius:50%;color:var(--_fg);cursor:pointer;font-size:1em;line-height:1}
.ctl:hover{border-color:var(--_accent)}
.i-pause{width:.75em;height:.85em;border:solid currentColor;border-width:0 .25em}
.i-play{margin-left:.2em;border:solid transparent;border-width:.45em 0 .45em .75em;border-left-color:currentColor}
.i-prev,.i-next{width:.6em;height:.6em;border:solid currentColor;border-width:.15em .15em 0 0;transform:rotate(45deg);margin-right:.2em}
.i-prev{transform:rotate(-135deg);margin:0 0 0 .2em}
@media (prefers-reduced-motion:no-preference){.bar{animation:pulse 1.2s ease-in-out infinite alternate}}
@keyframes pulse{to{opacity:.45}}
`;

let sheet: CSSStyleSheet | undefined;

/** One parsed sheet for every widget on the page. */
export function widgetStyles(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  return sheet;
}
