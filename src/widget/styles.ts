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
 * Reserving height: every row is one line (`--_lh`) high, clamped or
 * ellipsised, so a review is always `--_lines` lines and the list of N
 * reviews is as high before the data comes as after: the page under the
 * widget never jumps. Heights stay minimums, so text-spacing overrides
 * (WCAG 1.4.12) grow the box instead of clipping it.
 */
const css = `
:host{display:block;font-size:var(--roofing-reviews-font-size,medium)}
:host([hidden]){display:none}
.box{all:initial;display:block;box-sizing:border-box;font:1em/1.5 var(--roofing-reviews-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);
--_bg:var(--roofing-reviews-bg,#fff);--_fg:var(--roofing-reviews-fg,#1b1f24);--_muted:var(--roofing-reviews-muted,#4a5560);
--_accent:var(--roofing-reviews-accent,#8a3b12);--_star:var(--roofing-reviews-star,#9a5b00);--_empty:var(--roofing-reviews-star-empty,#c9c1b6);
--_border:var(--roofing-reviews-border,#d9d3ca);--_focus:var(--roofing-reviews-focus,#1d4ed8);
--_lh:1.5em;--_gap:.75em;--_lines:7;--_text-lines:4;--_item:calc(var(--_lines)*var(--_lh) + var(--_gap) + 1px);
color:var(--_fg);background:var(--_bg);border:1px solid var(--_border);border-radius:var(--roofing-reviews-radius,.5em);padding:1em;color-scheme:light}
.compact{--_lines:4;--_text-lines:2}
@media (prefers-color-scheme:dark){.box{--_bg:var(--roofing-reviews-bg,#1b1f24);--_fg:var(--roofing-reviews-fg,#f4f1ec);--_muted:var(--roofing-reviews-muted,#b9c1c9);
--_accent:var(--roofing-reviews-accent,#f3b58c);--_star:var(--roofing-reviews-star,#f5b83d);--_empty:var(--roofing-reviews-star-empty,#5b636c);
--_border:var(--roofing-reviews-border,#3d454e);--_focus:var(--roofing-reviews-focus,#93c5fd);color-scheme:dark}}
p,ul,li{margin:0;padding:0}
ul{list-style:none}
a{color:var(--_accent);text-decoration:underline;text-underline-offset:.15em;border-radius:2px}
a:hover{text-decoration-thickness:2px}
a:focus-visible{outline:2px solid var(--_focus);outline-offset:2px}
.row{display:flex;align-items:center;gap:.5em;height:var(--_lh);line-height:var(--_lh);white-space:nowrap;min-width:0}
.clip{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
.name{height:var(--_lh);line-height:var(--_lh);font-weight:700}
.name span{font-size:1.125em}
.head{margin-bottom:var(--_gap)}
.value{font-weight:700}
.stars{position:relative;flex:none;line-height:1;letter-spacing:.1em;color:var(--_empty)}
.stars span{display:block;overflow:hidden;white-space:nowrap}
.stars .fill{position:absolute;top:0;left:0;color:var(--_star)}
.body{min-height:calc(var(--_rows,3)*var(--_item) + (var(--_rows,3) - 1)*var(--_gap))}
.reviews{display:grid;gap:var(--_gap);align-content:start}
.review{border-top:1px solid var(--_border);padding-top:var(--_gap)}
.title{font-weight:700;height:var(--_lh);line-height:var(--_lh)}
.text{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:var(--_text-lines);overflow:hidden;overflow-wrap:anywhere;height:calc(var(--_text-lines)*var(--_lh));line-height:var(--_lh)}
.untitled{--_text-lines:5}
.muted,time{color:var(--_muted)}
.end{margin-left:auto;flex:none}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.bar{display:inline-block;height:.75em;width:10em;max-width:60%;border-radius:.25em;background:var(--_border)}
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
