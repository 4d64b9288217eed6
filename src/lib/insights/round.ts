/**
 * Three-decimal rounding for scores, shares and evaluation metrics.
 *
 * Deliberately not `roundTo(value, 3)` from ../reviews/published-dataset.ts: that adds
 * Number.EPSILON before rounding, so binary half-way values round differently
 * (0.5005 → 0.501 there, 0.5 here; -1.0235 → -1.023 there, -1.024 here).
 * Switching would change the bytes of insights.json for such inputs.
 */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
