/**
 * A star rating as glyphs (★★★★☆, the rating rounded) and as words for a
 * screen reader, for the `<span class="stars" role="img">` that ReviewCard.astro
 * and RatingSummary.astro write in place (no component: the listing pages
 * render a card 100k times at 100k reviews).
 */
export function starGlyphs(rating: number): string {
  const full = Math.round(rating);
  return '★'.repeat(full) + '☆'.repeat(5 - full);
}

export function starsLabel(rating: number): string {
  return `${rating} out of 5 stars`;
}
