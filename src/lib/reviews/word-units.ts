/**
 * Words and gaps, the units the text index is made of. A word is a maximal run
 * of word units, a gap a maximal run of anything else. Texts and needles are
 * cut by the same rule, which is what keeps the index exact: any fixed rule
 * would do, this one makes words what a reader calls words.
 */

/**
 * Word units: ASCII letters and digits, and any other code unit that is a
 * letter, number or mark (surrogates count as word units).
 */
const wordUnitCache = new Uint8Array(0x10000); // 0 unknown, 1 word, 2 not
const WORD_UNIT = /^[\p{L}\p{N}\p{M}]$/u;

export function isWordUnit(unit: number): boolean {
  if (unit < 0x80) return (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5a);
  let known = wordUnitCache[unit]!;
  if (known === 0) {
    known = (unit >= 0xd800 && unit <= 0xdfff) || WORD_UNIT.test(String.fromCharCode(unit)) ? 1 : 2;
    wordUnitCache[unit] = known;
  }
  return known === 1;
}

/**
 * A needle cut into its words and the gaps around them: `gaps[0]` before the
 * first word, `gaps[i]` between words i-1 and i, `gaps[words.length]` after the
 * last; the outer two may be empty, the inner ones never are. A needle with
 * no word at all is one gap (`words` empty, `gaps` = [needle]).
 */
export function splitNeedle(needle: string): { words: string[]; gaps: string[] } {
  const words: string[] = [];
  const gaps: string[] = [];
  for (let i = 0; ; ) {
    let j = i;
    while (j < needle.length && !isWordUnit(needle.charCodeAt(j))) j++;
    gaps.push(needle.slice(i, j));
    if (j === needle.length) break;
    i = j;
    while (j < needle.length && isWordUnit(needle.charCodeAt(j))) j++;
    words.push(needle.slice(i, j));
    if (j === needle.length) {
      gaps.push('');
      break;
    }
    i = j;
  }
  return { words, gaps };
}
