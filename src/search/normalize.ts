/**
 * Text folding for name search, shared by the index and the query so both sides compare the
 * same form: accents removed (`NFKD`, which also turns non-breaking spaces, full-width letters
 * and punctuation into their plain forms), lower case, the letters `NFKD` leaves whole mapped to
 * what a player types instead (`ß` -> `ss`, `oe` ligature -> `oe`, `æ` -> `ae`, `ø` -> `o`...), apostrophes
 * dropped ("Berserker's" -> "berserkers") - or, in French, where they elide an article ("Boule
 * d'ectoplasme"), a word break - and every other run of non-letters and non-digits one space.
 * Also the bounded edit distance the fuzzy tier uses.
 *
 * @module
 */

/** Printable ASCII only (control characters take the general path, which folds them too). */
const ASCII = /^[ -~]*$/;
const ASCII_APOSTROPHES = /['`]/g;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;
const MARKS = /\p{M}+/gu;
const APOSTROPHES = /['\u2019\u2018`´\u02BC]/g;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
/** Letters `NFKD` does not decompose, as players type them on a plain keyboard. */
const WHOLE_LETTERS = /[ß\u0153æø\u0111\u0142þ\u0131]/g;
const SPELLED: Readonly<Record<string, string>> = {
  "ß": "ss",
  "\u0153": "oe",
  "æ": "ae",
  "ø": "o",
  "\u0111": "d",
  "\u0142": "l",
  "þ": "th",
  "\u0131": "i",
};
/** Han characters: Chinese names have no word breaks, so a term of them matches anywhere. */
const HAN = /\p{Script=Han}/u;

/** How apostrophes fold: dropped (English "Berserker's"), or a word break (French elision). */
export type Apostrophes = "drop" | "split";

/**
 * The searchable form of a name or query.
 *
 * @example
 * ```ts
 * foldName("Berserker's  Éclair!"); // "berserkers eclair"
 * foldName("Boule d'ectoplasme", "split"); // "boule d ectoplasme"
 * foldName("Großes Ölfaß"); // "grosses olfass"
 * ```
 */
export function foldName(text: string, apostrophes: Apostrophes = "drop"): string {
  const apostrophe = apostrophes === "drop" ? "" : " ";
  // Most names are plain ASCII: no accents to strip, and cheaper patterns fold them the same.
  if (ASCII.test(text)) {
    return text.toLowerCase().replace(ASCII_APOSTROPHES, apostrophe)
      .replace(ASCII_SEPARATORS, " ").trim();
  }
  return text.normalize("NFKD").replace(MARKS, "").toLowerCase()
    .replace(WHOLE_LETTERS, (letter) => SPELLED[letter] ?? letter)
    .replace(APOSTROPHES, apostrophe).replace(SEPARATORS, " ").trim();
}

/** True when `term` holds a Han character: it then matches anywhere in a name, not a word start. */
export function isHanTerm(term: string): boolean {
  return HAN.test(term);
}

/** The words of a folded text (empty for an empty text). */
export function wordsOf(folded: string): string[] {
  return folded === "" ? [] : folded.split(" ");
}

/**
 * Text as character codes: the packed names keep their folded forms and words this way, outside
 * V8's heap (a typed array's bytes are not part of the heap V8 sizes its old generation by).
 */
export type Codes = Uint8Array | Uint16Array;

/** `text` as character codes (UTF-16 code units). */
export function codesOf(text: string): Uint16Array {
  const codes = new Uint16Array(text.length);
  for (let at = 0; at < text.length; at++) codes[at] = text.charCodeAt(at);
  return codes;
}

/** True when `codes[start, start + term.length)` is `term`. */
export function codesStartWith(codes: Codes, start: number, term: string): boolean {
  if (start + term.length > codes.length) return false;
  for (let at = 0; at < term.length; at++) {
    if (codes[start + at] !== term.charCodeAt(at)) return false;
  }
  return true;
}

/** Scratch rows for {@linkcode distanceWithin}, grown on demand (one search at a time). */
let scratch = new Int32Array(3 * 64);

/**
 * The optimal-string-alignment distance between `a` and the word `b[bStart, bStart + bLength)`
 * (insertions, deletions, substitutions and adjacent transpositions each cost 1), or `max + 1`
 * as soon as it is known to exceed `max`. Bounded so that scanning a vocabulary of tens of
 * thousands of words stays cheap: only the diagonal band of width `2·max + 1` is computed,
 * without allocating, and most words are rejected by their length or after a few rows. With
 * `prefix`, the distance to the closest start of that word (`b[bStart, bStart + j)` for any
 * `j <= bLength`): one pass for a word still being typed.
 */
export function distanceWithin(
  a: string,
  b: Codes,
  max: number,
  bLength = b.length,
  bStart = 0,
  prefix = false,
): number {
  const over = max + 1;
  if (prefix ? a.length - bLength > max : Math.abs(a.length - bLength) > max) return over;
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
      const bj = b[bStart + j - 1]!;
      let value = Math.min(
        (rows[previous + j] ?? over) + 1,
        (rows[current + j - 1] ?? over) + 1,
        (rows[previous + j - 1] ?? over) + (ai === bj ? 0 : 1),
      );
      if (j > 1 && ai === b[bStart + j - 2] && aBefore === bj) {
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
  // (In prefix mode the last column may lie outside the band: only the band is read.)
  let distance = prefix ? over : rows[previous + bLength] ?? over;
  if (prefix) {
    const last = a.length;
    for (let j = Math.max(0, last - max); j <= Math.min(bLength, last + max); j++) {
      distance = Math.min(distance, rows[previous + j] ?? over);
    }
  }
  return distance > max ? over : distance;
}

/**
 * A cheap necessary condition for `distanceWithin(a, b, max, bLength, bStart, prefix) <= max`
 * (`b` read from `bStart`): in every run of `max + 1` characters of `a` - its consecutive blocks
 * and its last - one stands in `b` within `max` places of its own. With at most `max` edits, not
 * every character of a run can be substituted or deleted; a matched one is shifted by the
 * insertions and deletions before it, a transposed one by one place more and one edit fewer.
 */
export function mayBeWithin(
  a: string,
  b: Codes,
  max: number,
  bLength: number,
  bStart: number,
): boolean {
  const n = a.length;
  if (max >= n) return true;
  const run = max + 1;
  for (let first = 0; first < n; first += run) {
    // The last run ends with `a`: it may overlap the one before.
    const from = Math.min(first, n - run);
    let found = false;
    for (let k = from; k < from + run && !found; k++) {
      const code = a.charCodeAt(k);
      const to = Math.min(bLength - 1, k + max);
      for (let j = Math.max(0, k - max); j <= to; j++) {
        if (b[bStart + j] === code) {
          found = true;
          break;
        }
      }
    }
    if (!found) return false;
  }
  return true;
}
