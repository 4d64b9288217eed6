/**
 * A star rating as glyphs (★★★★☆, the rating rounded) and as words for a
 * screen reader: what src/components/Stars.astro shows, and ReviewCard.astro
 * writes in place (a component per card cost the 4,000 listing pages of 100k
 * reviews a component instance each, 100k times).
 */
export function starGlyphs(rating: number): string {
  const full = Math.round(rating);
  return '★'.repeat(full) + '☆'.repeat(5 - full);
}

export function starsLabel(rating: number): string {
  return `${rating} out of 5 stars`;
}
