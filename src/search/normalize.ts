/**
 * Text folding for name search, shared by the index and the query so both sides compare the
 * same form: accents removed, lower case, apostrophes dropped ("Berserker's" → "berserkers"),
 * every other run of non-letters and non-digits one space. Also the bounded edit distance the
 * fuzzy tier uses.
 *
 * @module
 */

/** Printable ASCII only (control characters take the general path, which folds them too). */
const ASCII = /^[ -~]*$/;
const ASCII_APOSTROPHES = /['`]/g;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;
const MARKS = /\p{M}+/gu;
const APOSTROPHES = /['’‘`´]/g;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

/**
 * The searchable form of a name or query.
 *
 * @example
 * ```ts
 * foldName("Berserker's  Éclair!"); // "berserkers eclair"
 * ```
 */
export function foldName(text: string): string {
  // Most names are plain ASCII: no accents to strip, and cheaper patterns fold them the same.
  if (ASCII.test(text)) {
    return text.toLowerCase().replace(ASCII_APOSTROPHES, "").replace(ASCII_SEPARATORS, " ")
      .trim();
  }
  return text.normalize("NFKD").replace(MARKS, "").toLowerCase().replace(APOSTROPHES, "")
    .replace(SEPARATORS, " ").trim();
}

/** The words of a folded text (empty for an empty text). */
export function wordsOf(folded: string): string[] {
  return folded === "" ? [] : folded.split(" ");
}

/** Scratch rows for {@linkcode distanceWithin}, grown on demand (one search at a time). */
let scratch = new Int32Array(3 * 64);

/**
 * The optimal-string-alignment distance between `a` and `b` (insertions, deletions,
 * substitutions and adjacent transpositions each cost 1), or `max + 1` as soon as it is known
 * to exceed `max`. Bounded so that scanning a vocabulary of tens of thousands of words stays
 * cheap: only the diagonal band of width `2·max + 1` is computed, without allocating, and most
 * words are rejected by their length or after a few rows. `bLength` compares `a` with the start
 * of `b` only (a word still being typed), without slicing it.
 */
export function distanceWithin(a: string, b: string, max: number, bLength = b.length): number {
  const over = max + 1;
  if (Math.abs(a.length - bLength) > max) return over;
  if (bLength === b.length && a === b) return 0;
  const width = bLength + 1;
  if (scratch.length < 3 * width) scratch = new Int32Array(6 * width);
  const rows = scratch;
  // Three rows in one buffer, rotated by offset: two rows back (for transpositions), the
  // previous row and the current one. Cells just outside the band hold `over`.
  let before = 0;
  let previous = width;
  let current = 2 * width;
  for (let j = 0; j < width; j++) rows[previous + j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const ai = a.charCodeAt(i - 1);
    const aBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    const low = Math.max(1, i - max);
    const high = Math.min(bLength, i + max);
    rows[current] = i;
    if (low > 1) rows[current + low - 1] = over;
    let rowMin = i;
    for (let j = low; j <= high; j++) {
      const bj = b.charCodeAt(j - 1);
      let value = Math.min(
        (rows[previous + j] ?? over) + 1,
        (rows[current + j - 1] ?? over) + 1,
        (rows[previous + j - 1] ?? over) + (ai === bj ? 0 : 1),
      );
      if (j > 1 && ai === b.charCodeAt(j - 2) && aBefore === bj) {
        value = Math.min(value, (rows[before + j - 2] ?? over) + 1);
      }
      rows[current + j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (high < bLength) rows[current + high + 1] = over;
    if (rowMin > max) return over;
    const free = before;
    before = previous;
    previous = current;
    current = free;
  }
  const distance = rows[previous + bLength] ?? over;
  return distance > max ? over : distance;
}
