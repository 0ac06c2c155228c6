/**
 * One language's names, packed: every column a typed array, so 75,000 names cost a dozen objects
 * instead of several per name, and their bytes lie outside V8's heap: V8 grows its old generation
 * to several times what is live in it, so each byte kept in the heap is paid again in resident
 * memory, a typed array's bytes once (docs/performance.md, "Memory"). Immutable once built;
 * `name_table.ts` keeps the changes since in a small overlay and builds a new one now and then.
 * Building is also offered as steps (`mergeSteps`, `builder`): generators that yield every few
 * thousand entries, run in slices between requests at full scale (`src/async/slices.ts`).
 *
 * | column | holds |
 * |---|---|
 * | `ids` | the item ids, ascending (found by binary search) |
 * | `rarity`, `type` | codes into the table's list of distinct strings |
 * | `names`, `nameAt` | the names as UTF-8, and where each starts |
 * | `folded`, `foldedAt` | the folded names (`normalize.ts`) as character codes, and where each starts |
 * | `words`, `wordAt` | the distinct words of the folded names, sorted, as character codes |
 * | `masks`, `heads` | per word, which letters it holds, and which its first five (cheap filters before an edit distance) |
 * | `postAt`, `posts` | per word, the entries holding it: ascending, delta-coded varints |
 *
 * Codes are bytes where every character of the column fits one (Latin-1: English, German,
 * French, Spanish folded), else UTF-16 code units. Chinese names have no word breaks: each is one
 * "word", so a vocabulary would only copy them. Packed without one (`words: false`), names are
 * found by scanning `folded`, and `masks` holds each entry's letters instead.
 *
 * Pure: no I/O.
 *
 * @module
 */

import { runToEnd } from "../async/slices.ts";
import { type Codes, codesStartWith } from "./normalize.ts";

/** One entry to pack: its folded name is computed by the caller (it depends on the language). */
export interface PackedRow {
  readonly id: number;
  readonly name: string;
  readonly folded: string;
  readonly rarity: number;
  readonly type: number;
}

/**
 * Names packed as they come ({@linkcode PackedNames.builder}): add them in ascending id order,
 * then run {@linkcode PackedNamesBuilder.steps} (in slices, or at once) for the packed names.
 */
export interface PackedNamesBuilder {
  /** Names added so far. */
  readonly size: number;
  /**
   * Adds a name: its id (above every id added before), its name, its folded form (by the
   * language's rule) and its rarity and type codes (below 256).
   *
   * @throws {RangeError} when the id is not above the last one
   */
  add(id: number, name: string, folded: string, rarity: number, type: number): void;
  /** Packs what was added, as steps; add nothing more after. */
  steps(): Generator<void, PackedNames, undefined>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The per-entry columns of a pack: what a merge builds before the vocabulary. */
interface EntryColumns {
  readonly ids: Int32Array;
  readonly rarity: Uint8Array;
  readonly type: Uint8Array;
  readonly names: Uint8Array;
  readonly nameAt: Int32Array;
  readonly folded: Codes;
  readonly foldedAt: Int32Array;
}
const SPACE = 32;
/**
 * Letters of a word's start kept as its head mask: with at most two edits one of a term's first
 * three letters stands among a matching word's first five (see `mayBeWithin`).
 */
const HEAD = 5;

/**
 * The letter bit of a character code: a-z their own, any other (digits, Han) one of six more
 * by its value, so a Latin term's letters are never taken for a Chinese name's characters.
 */
function letterBit(code: number): number {
  return 1 << (code >= 97 && code <= 122 ? code - 97 : 26 + code % 6);
}

/** The letter bits of `text[start, end)`. */
export function letterMask(text: string, start = 0, end = text.length): number {
  let mask = 0;
  for (let at = start; at < end; at++) mask |= letterBit(text.charCodeAt(at));
  return mask;
}

/** The letter bits of `codes[start, end)`. */
function codeMask(codes: Codes, start: number, end: number): number {
  let mask = 0;
  for (let at = start; at < end; at++) mask |= letterBit(codes[at]!);
  return mask;
}

/** `codes[start, end)` as a string. */
function textOf(codes: Codes, start: number, end: number): string {
  let text = "";
  // In runs, so a long name does not spread into too many arguments.
  for (let at = start; at < end; at += 1024) {
    text += String.fromCharCode(...codes.subarray(at, Math.min(end, at + 1024)));
  }
  return text;
}

/**
 * How often the steps of a merge yield: every 4,096 entries (a few hundred microseconds of the
 * cheaper loops) and every 1,024 words or rows split into words (the dearer ones).
 */
const STEP = 4_095;
const WORD_STEP = 1_023;
/** Items a sort orders in one piece before merging runs. */
const SORT_RUN = 1_024;

/**
 * `items` sorted by `compare` (stable), as steps: runs of {@linkcode SORT_RUN} sorted in one
 * piece, then merged pairwise, yielding between runs and every few thousand merged items - so
 * sorting a vocabulary of 50,000 words never holds the event loop for the whole sort.
 */
export function* sortSteps<T>(
  items: T[],
  compare: (a: T, b: T) => number,
): Generator<void, T[], undefined> {
  for (let start = 0; start < items.length; start += SORT_RUN) {
    const run = items.slice(start, start + SORT_RUN).sort(compare);
    for (let at = 0; at < run.length; at++) items[start + at] = run[at]!;
    yield;
  }
  let from = items;
  let to = new Array<T>(items.length);
  for (let width = SORT_RUN; width < items.length; width *= 2) {
    let out = 0;
    for (let left = 0; left < from.length; left += 2 * width) {
      const middle = Math.min(left + width, from.length);
      const end = Math.min(left + 2 * width, from.length);
      let a = left;
      let b = middle;
      while (a < middle || b < end) {
        if ((out & STEP) === STEP) yield;
        // Ties go to the left run: the sort stays stable.
        to[out++] = b >= end || (a < middle && compare(from[a]!, from[b]!) <= 0)
          ? from[a++]!
          : from[b++]!;
      }
    }
    [from, to] = [to, from];
  }
  return from;
}

/** Bits set in a 32-bit mask. */
export function bitCount(mask: number): number {
  let bits = mask - ((mask >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** One language's names, packed. */
export class PackedNames {
  /** Entries held. */
  readonly size: number;
  readonly #ids: Int32Array;
  readonly #rarity: Uint8Array;
  readonly #type: Uint8Array;
  readonly #names: Uint8Array;
  readonly #nameAt: Int32Array;
  readonly #folded: Codes;
  readonly #foldedAt: Int32Array;
  readonly #words: Codes;
  readonly #wordAt: Int32Array;
  readonly #masks: Int32Array;
  readonly #heads: Int32Array;
  readonly #postAt: Int32Array;
  readonly #posts: Uint8Array;
  /** Whether the words are indexed (else `masks` is per entry). */
  readonly hasWords: boolean;

  private constructor(
    parts: EntryColumns & {
      words: Codes;
      wordAt: Int32Array;
      masks: Int32Array;
      heads: Int32Array;
      postAt: Int32Array;
      posts: Uint8Array;
      hasWords: boolean;
    },
  ) {
    this.size = parts.ids.length;
    this.#ids = parts.ids;
    this.#rarity = parts.rarity;
    this.#type = parts.type;
    this.#names = parts.names;
    this.#nameAt = parts.nameAt;
    this.#folded = parts.folded;
    this.#foldedAt = parts.foldedAt;
    this.#words = parts.words;
    this.#wordAt = parts.wordAt;
    this.#masks = parts.masks;
    this.#heads = parts.heads;
    this.#postAt = parts.postAt;
    this.#posts = parts.posts;
    this.hasWords = parts.hasWords;
  }

  /** Nothing packed. */
  static readonly EMPTY: PackedNames = PackedNames.merge(undefined, []);

  /**
   * Packs `rows`, which must be in ascending id order without duplicates; `words: false` packs
   * no vocabulary (see the module). Rarity and type codes must be below 256.
   *
   * @throws {RangeError} when they are not
   */
  static build(
    rows: readonly PackedRow[],
    options: { readonly words?: boolean } = {},
  ): PackedNames {
    return PackedNames.merge(undefined, rows, options);
  }

  /**
   * A builder that packs names handed to it one at a time, in ascending id order - a load's way:
   * each name goes straight into the builder's columns (typed arrays, grown as needed), so no
   * object is kept per name while a language of 75,000 loads, and the garbage collector has
   * little to mark or move ({@linkcode PackedNamesBuilder}).
   */
  static builder(options: { readonly words?: boolean } = {}): PackedNamesBuilder {
    const hasWords = options.words ?? true;
    let count = 0;
    let ids = new Int32Array(1_024);
    let rarity = new Uint8Array(1_024);
    let type = new Uint8Array(1_024);
    let nameAt = new Int32Array(1_025);
    let foldedAt = new Int32Array(1_025);
    let names = new Uint8Array(16_384);
    let folded = new Uint16Array(16_384);
    let written = 0;
    let foldedLength = 0;
    let wide = false;
    // The words met, numbered in order of appearance, and the [word, entry] pairs of postings.
    const wordIndex = new Map<string, number>();
    const words: string[] = [];
    let lastEntry = new Int32Array(1_024).fill(-1);
    let pairs = new Int32Array(4_096);
    let pairCount = 0;
    return {
      get size() {
        return count;
      },
      add(id, name, text, rarityCode, typeCode) {
        if (count > 0 && id <= ids[count - 1]!) {
          throw new RangeError(`Cannot pack names: id ${id} is out of order`);
        }
        ids = grownInt32(ids, count + 1);
        rarity = grownBytes(rarity, count + 1);
        type = grownBytes(type, count + 1);
        nameAt = grownInt32(nameAt, count + 2);
        foldedAt = grownInt32(foldedAt, count + 2);
        names = grownBytes(names, written + name.length * 3);
        folded = grownCodes(folded, foldedLength + text.length);
        ids[count] = id;
        rarity[count] = rarityCode;
        type[count] = typeCode;
        nameAt[count] = written;
        written += encoder.encodeInto(name, names.subarray(written)).written;
        foldedAt[count] = foldedLength;
        for (let at = 0; at < text.length; at++) {
          const code = text.charCodeAt(at);
          if (code > 0xff) wide = true;
          folded[foldedLength++] = code;
        }
        if (hasWords && text !== "") {
          for (const word of text.split(" ")) {
            let index = wordIndex.get(word);
            if (index === undefined) {
              index = words.length;
              wordIndex.set(word, index);
              words.push(word);
              lastEntry = grownInt32(lastEntry, index + 1);
              lastEntry[index] = -1;
            }
            // Each word once per entry.
            if (lastEntry[index] === count) continue;
            lastEntry[index] = count;
            pairs = grownInt32(pairs, pairCount * 2 + 2);
            pairs[pairCount * 2] = index;
            pairs[pairCount * 2 + 1] = count;
            pairCount++;
          }
        }
        count++;
      },
      *steps() {
        nameAt[count] = written;
        foldedAt[count] = foldedLength;
        const codes = folded.subarray(0, foldedLength);
        // Bytes where every code fits one (`set` narrows natively; `from` would iterate).
        const narrow = wide ? codes.slice() : new Uint8Array(foldedLength);
        if (!wide) narrow.set(codes);
        const columns: EntryColumns = {
          ids: ids.slice(0, count),
          rarity: rarity.slice(0, count),
          type: type.slice(0, count),
          names: names.slice(0, written),
          nameAt: nameAt.slice(0, count + 1),
          folded: narrow,
          foldedAt: foldedAt.slice(0, count + 1),
        };
        if (!hasWords) {
          const masks = new Int32Array(count);
          for (let entry = 0; entry < count; entry++) {
            if ((entry & STEP) === STEP) yield;
            masks[entry] = codeMask(columns.folded, foldedAt[entry]!, foldedAt[entry + 1]!);
          }
          return PackedNames.#wordless(columns, masks);
        }
        const total = words.length;
        const offsets = new Int32Array(total + 1);
        for (let at = 0; at < pairCount; at++) offsets[pairs[at * 2]! + 1]!++;
        for (let word = 0; word < total; word++) offsets[word + 1]! += offsets[word]!;
        yield;
        // Pairs come in entry order: each word's postings ascend as they are filled.
        const flat = new Int32Array(pairCount);
        const fill = offsets.slice(0, total);
        for (let at = 0; at < pairCount; at++) {
          if ((at & STEP) === STEP) yield;
          flat[fill[pairs[at * 2]!]!++] = pairs[at * 2 + 1]!;
        }
        const order = yield* sortSteps(
          [...words.keys()],
          (a, b) => words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0,
        );
        return yield* PackedNames.#vocabulary(columns, undefined, words, order, offsets, flat);
      },
    };
  }

  /**
   * `base` with `rows` merged in (ascending ids, no duplicates; a row replaces the entry of its
   * id): the kept entries' bytes are copied column by column and their postings carried over,
   * so a rebuild allocates no object per entry - only the new columns, a string per distinct
   * word and the rows' own words.
   *
   * @throws {RangeError} when `rows` are not in ascending id order
   */
  static merge(
    base: PackedNames | undefined,
    rows: readonly PackedRow[],
    options: { readonly words?: boolean } = {},
  ): PackedNames {
    return runToEnd(PackedNames.mergeSteps(base, rows, options));
  }

  /**
   * {@linkcode PackedNames.merge} as steps: a generator that yields every few thousand entries
   * or words and returns the merged names, so a caller can run it in slices between requests
   * (`runInSlices`, `src/async/slices.ts`). Nothing is shared with `base` but what it reads:
   * until the generator returns, `base` stays as it was and keeps answering searches.
   *
   * @throws {RangeError} when `rows` are not in ascending id order
   */
  static *mergeSteps(
    base: PackedNames | undefined,
    rows: readonly PackedRow[],
    options: { readonly words?: boolean } = {},
  ): Generator<void, PackedNames, undefined> {
    const hasWords = options.words ?? base?.hasWords ?? true;
    // An empty base has nothing to carry, whichever way it was packed.
    const old = base === undefined || base.size === 0 ? undefined : base;
    if (old !== undefined && old.hasWords !== hasWords) {
      throw new RangeError("Cannot merge names packed with words into names packed without");
    }
    const oldSize = old?.size ?? 0;
    // The merged order: each slot a kept base entry (>= 0) or a row (-1 - its index).
    let replaced = 0;
    for (let index = 0; index < rows.length; index++) {
      if ((index & STEP) === STEP) yield;
      const row = rows[index]!;
      if (index > 0 && row.id <= rows[index - 1]!.id) {
        throw new RangeError(`Cannot pack names: id ${row.id} is out of order`);
      }
      if (old !== undefined && old.indexOf(row.id) !== -1) replaced++;
    }
    const count = oldSize + rows.length - replaced;
    const source = new Int32Array(count);
    const oldToNew = new Int32Array(oldSize).fill(-1);
    {
      let entry = 0;
      let next = 0;
      for (let slot = 0; slot < count; slot++) {
        if ((slot & STEP) === STEP) yield;
        const oldId = entry < oldSize ? old!.#ids[entry]! : Infinity;
        const rowId = next < rows.length ? rows[next]!.id : Infinity;
        if (rowId <= oldId) {
          source[slot] = -1 - next++;
          if (rowId === oldId) entry++;
        } else {
          oldToNew[entry] = slot;
          source[slot] = entry++;
        }
      }
    }
    const ids = new Int32Array(count);
    const rarity = new Uint8Array(count);
    const type = new Uint8Array(count);
    const nameAt = new Int32Array(count + 1);
    const foldedAt = new Int32Array(count + 1);
    let nameCapacity = 0;
    let foldedLength = 0;
    let wide = old !== undefined && old.#folded instanceof Uint16Array;
    for (let slot = 0; slot < count; slot++) {
      if ((slot & STEP) === STEP) yield;
      const from = source[slot]!;
      if (from >= 0) {
        nameCapacity += old!.#nameAt[from + 1]! - old!.#nameAt[from]!;
        foldedLength += old!.#foldedAt[from + 1]! - old!.#foldedAt[from]!;
      } else {
        const row = rows[-1 - from]!;
        nameCapacity += row.name.length * 3;
        foldedLength += row.folded.length;
        for (let at = 0; at < row.folded.length && !wide; at++) {
          wide = row.folded.charCodeAt(at) > 0xff;
        }
      }
    }
    const names = new Uint8Array(nameCapacity);
    const folded = wide ? new Uint16Array(foldedLength) : new Uint8Array(foldedLength);
    let written = 0;
    let foldedAtNow = 0;
    for (let slot = 0; slot < count; slot++) {
      if ((slot & STEP) === STEP) yield;
      const from = source[slot]!;
      if (from >= 0) {
        // A run of kept entries is one stretch of the base's bytes: copied at once.
        let end = slot + 1;
        while (end < count && source[end] === from + (end - slot)) end++;
        const last = from + (end - slot);
        const base = old!;
        ids.set(base.#ids.subarray(from, last), slot);
        rarity.set(base.#rarity.subarray(from, last), slot);
        type.set(base.#type.subarray(from, last), slot);
        const nameShift = written - base.#nameAt[from]!;
        const foldedShift = foldedAtNow - base.#foldedAt[from]!;
        for (let entry = from; entry < last; entry++) {
          nameAt[slot + entry - from] = base.#nameAt[entry]! + nameShift;
          foldedAt[slot + entry - from] = base.#foldedAt[entry]! + foldedShift;
        }
        names.set(base.#names.subarray(base.#nameAt[from]!, base.#nameAt[last]!), written);
        written += base.#nameAt[last]! - base.#nameAt[from]!;
        folded.set(
          base.#folded.subarray(base.#foldedAt[from]!, base.#foldedAt[last]!),
          foldedAtNow,
        );
        foldedAtNow += base.#foldedAt[last]! - base.#foldedAt[from]!;
        slot = end - 1;
        continue;
      }
      nameAt[slot] = written;
      foldedAt[slot] = foldedAtNow;
      const row = rows[-1 - from]!;
      ids[slot] = row.id;
      rarity[slot] = row.rarity;
      type[slot] = row.type;
      written += encoder.encodeInto(row.name, names.subarray(written)).written;
      for (let at = 0; at < row.folded.length; at++) {
        folded[foldedAtNow++] = row.folded.charCodeAt(at);
      }
    }
    nameAt[count] = written;
    foldedAt[count] = foldedAtNow;
    const columns = {
      ids,
      rarity,
      type,
      names: names.slice(0, written),
      nameAt,
      folded,
      foldedAt,
    };
    if (!hasWords) {
      const masks = new Int32Array(count);
      for (let slot = 0; slot < count; slot++) {
        if ((slot & STEP) === STEP) yield;
        const from = source[slot]!;
        masks[slot] = from >= 0 && old !== undefined && !old.hasWords
          ? old.#masks[from]!
          : codeMask(folded, foldedAt[slot]!, foldedAt[slot + 1]!);
      }
      return PackedNames.#wordless(columns, masks);
    }
    return yield* PackedNames.#withWords(columns, old, oldToNew, rows, source);
  }

  /** Names without a word index: each entry's letter mask stands in for its words. */
  static #wordless(columns: EntryColumns, masks: Int32Array): PackedNames {
    return new PackedNames({
      ...columns,
      words: new Uint8Array(0),
      wordAt: new Int32Array(1),
      masks,
      heads: new Int32Array(0),
      postAt: new Int32Array(1),
      posts: new Uint8Array(0),
      hasWords: false,
    });
  }

  /**
   * The vocabulary of merged columns: the base's words and postings carried as codes (never
   * made strings again), the rows' new words merged into their sorted order.
   */
  static *#withWords(
    columns: EntryColumns,
    old: PackedNames | undefined,
    oldToNew: Int32Array,
    rows: readonly PackedRow[],
    source: Int32Array,
  ): Generator<void, PackedNames, undefined> {
    const oldWords = old === undefined ? 0 : old.#masks.length;
    // Words are numbered: the base's first (0 ... oldWords - 1), then the rows' new ones.
    const added: string[] = [];
    const addedIndex = new Map<string, number>();
    // The rows' postings: [word, slot] pairs, each word once per row.
    const rowPosts: number[] = [];
    for (let slot = 0; slot < source.length; slot++) {
      if ((slot & WORD_STEP) === WORD_STEP) yield;
      const from = source[slot]!;
      if (from >= 0) continue;
      const text = rows[-1 - from]!.folded;
      if (text === "") continue;
      const seen = new Set<number>();
      for (const word of text.split(" ")) {
        let index = old === undefined ? -1 : old.#find(word);
        if (index === -1) {
          index = addedIndex.get(word) ?? -1;
          if (index === -1) {
            index = oldWords + added.length;
            addedIndex.set(word, index);
            added.push(word);
          }
        }
        if (seen.has(index)) continue;
        seen.add(index);
        rowPosts.push(index, slot);
      }
    }
    const total = oldWords + added.length;
    // Count each word's postings: the base's kept entries and the rows'.
    const counts = new Int32Array(total);
    let counting = 0;
    const countKept = (entry: number) => {
      if (oldToNew[entry]! >= 0) counts[counting]!++;
    };
    for (counting = 0; counting < oldWords; counting++) {
      if ((counting & WORD_STEP) === WORD_STEP) yield;
      old!.forEachPosted(counting, countKept);
    }
    const touched = new Uint8Array(total);
    for (let at = 0; at < rowPosts.length; at += 2) {
      counts[rowPosts[at]!]!++;
      touched[rowPosts[at]!] = 1;
    }
    const offsets = new Int32Array(total + 1);
    for (let word = 0; word < total; word++) offsets[word + 1] = offsets[word]! + counts[word]!;
    const flat = new Int32Array(offsets[total]!);
    const fill = offsets.slice(0, total);
    let filling = 0;
    const fillKept = (entry: number) => {
      const slot = oldToNew[entry]!;
      if (slot >= 0) flat[fill[filling]!++] = slot;
    };
    for (filling = 0; filling < oldWords; filling++) {
      if ((filling & WORD_STEP) === WORD_STEP) yield;
      old!.forEachPosted(filling, fillKept);
    }
    for (let at = 0; at < rowPosts.length; at += 2) {
      const word = rowPosts[at]!;
      flat[fill[word]!++] = rowPosts[at + 1]!;
    }
    for (let word = 0; word < total; word++) {
      if ((word & WORD_STEP) === WORD_STEP) yield;
      if (touched[word]) flat.subarray(offsets[word]!, offsets[word + 1]!).sort();
    }
    // Words sorted, without the ones no entry holds any more: the base's are in order already,
    // the new ones are sorted and merged in.
    const fresh = yield* sortSteps(
      [...added.keys()],
      (a, b) => added[a]! < added[b]! ? -1 : added[a]! > added[b]! ? 1 : 0,
    );
    const order: number[] = [];
    {
      let kept = 0;
      let next = 0;
      while (kept < oldWords || next < fresh.length) {
        if (((kept + next) & STEP) === STEP) yield;
        const takeOld = next >= fresh.length ||
          (kept < oldWords && old!.#compareWord(kept, added[fresh[next]!]!) < 0);
        const word = takeOld ? kept++ : oldWords + fresh[next++]!;
        if (counts[word]! > 0) order.push(word);
      }
    }
    return yield* PackedNames.#vocabulary(columns, old, added, order, offsets, flat);
  }

  /**
   * The packed names of `columns` with their vocabulary: the words of `order` (ascending; a word
   * below `old`'s word count is that word of `old`, copied as codes, any other the string
   * `added[word - oldWords]`), each posting the entries `flat[offsets[word], offsets[word + 1])`
   * (ascending), delta-coded.
   */
  static *#vocabulary(
    columns: EntryColumns,
    old: PackedNames | undefined,
    added: readonly string[],
    order: readonly number[],
    offsets: Int32Array,
    flat: Int32Array,
  ): Generator<void, PackedNames, undefined> {
    const oldWords = old === undefined ? 0 : old.#masks.length;
    const wordAt = new Int32Array(order.length + 1);
    const masks = new Int32Array(order.length);
    const heads = new Int32Array(order.length);
    const postAt = new Int32Array(order.length + 1);
    let wordLength = 0;
    let postBytes = 0;
    let wide = old !== undefined && old.#words instanceof Uint16Array;
    for (let index = 0; index < order.length; index++) {
      if ((index & WORD_STEP) === WORD_STEP) yield;
      const word = order[index]!;
      wordAt[index] = wordLength;
      if (word < oldWords) {
        wordLength += old!.#wordAt[word + 1]! - old!.#wordAt[word]!;
        masks[index] = old!.#masks[word]!;
        heads[index] = old!.#heads[word]!;
      } else {
        const text = added[word - oldWords]!;
        wordLength += text.length;
        masks[index] = letterMask(text);
        heads[index] = letterMask(text, 0, Math.min(text.length, HEAD));
        for (let at = 0; at < text.length && !wide; at++) wide = text.charCodeAt(at) > 0xff;
      }
      let last = -1;
      for (let at = offsets[word]!; at < offsets[word + 1]!; at++) {
        postBytes += varintLength(flat[at]! - last);
        last = flat[at]!;
      }
    }
    wordAt[order.length] = wordLength;
    const words = wide ? new Uint16Array(wordLength) : new Uint8Array(wordLength);
    const posts = new Uint8Array(postBytes);
    let at = 0;
    for (let index = 0; index < order.length; index++) {
      if ((index & WORD_STEP) === WORD_STEP) yield;
      const word = order[index]!;
      if (word < oldWords) {
        words.set(
          old!.#words.subarray(old!.#wordAt[word]!, old!.#wordAt[word + 1]!),
          wordAt[index]!,
        );
      } else {
        const text = added[word - oldWords]!;
        const from = wordAt[index]!;
        for (let letter = 0; letter < text.length; letter++) {
          words[from + letter] = text.charCodeAt(letter);
        }
      }
      postAt[index] = at;
      let last = -1;
      for (let post = offsets[word]!; post < offsets[word + 1]!; post++) {
        at = writeVarint(posts, at, flat[post]! - last);
        last = flat[post]!;
      }
    }
    postAt[order.length] = at;
    return new PackedNames({
      ...columns,
      words,
      wordAt,
      masks,
      heads,
      postAt,
      posts,
      hasWords: true,
    });
  }

  /** The word that is `text` exactly, or -1 (binary search). */
  #find(text: string): number {
    const word = this.#bound(text, false);
    return word < this.#masks.length && this.#compareWord(word, text) === 0 ? word : -1;
  }

  /** The word's order against `text` (code by code, then by length). */
  #compareWord(word: number, text: string): number {
    return this.#compareCodes(word, text) || this.#wordLength(word) - text.length;
  }

  /** The first difference of the word's codes from `text`'s; 0 when one starts the other. */
  #compareCodes(word: number, text: string): number {
    const words = this.#words;
    const start = this.#wordAt[word]!;
    const shared = Math.min(this.#wordLength(word), text.length);
    for (let at = 0; at < shared; at++) {
      const difference = words[start + at]! - text.charCodeAt(at);
      if (difference !== 0) return difference;
    }
    return 0;
  }

  #wordLength(word: number): number {
    return this.#wordAt[word + 1]! - this.#wordAt[word]!;
  }

  /** The entry holding `id`, or -1. */
  indexOf(id: number): number {
    let low = 0;
    let high = this.size - 1;
    const ids = this.#ids;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = ids[middle]!;
      if (value === id) return middle;
      if (value < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  id(entry: number): number {
    return this.#ids[entry]!;
  }

  rarity(entry: number): number {
    return this.#rarity[entry]!;
  }

  type(entry: number): number {
    return this.#type[entry]!;
  }

  /** The entry's name, decoded (a fresh string). */
  name(entry: number): string {
    return decoder.decode(this.#names.subarray(this.#nameAt[entry]!, this.#nameAt[entry + 1]!));
  }

  /** The entry's folded name (a fresh string). */
  folded(entry: number): string {
    return textOf(this.#folded, this.#foldedAt[entry]!, this.#foldedAt[entry + 1]!);
  }

  /** Length of the entry's folded name. */
  foldedLength(entry: number): number {
    return this.#foldedAt[entry + 1]! - this.#foldedAt[entry]!;
  }

  /** True when the entry's folded name is `text`. */
  foldedEquals(entry: number, text: string): boolean {
    const start = this.#foldedAt[entry]!;
    return this.#foldedAt[entry + 1]! - start === text.length &&
      codesStartWith(this.#folded, start, text);
  }

  /** True when the entry's folded name starts with `text`. */
  foldedStartsWith(entry: number, text: string): boolean {
    const start = this.#foldedAt[entry]!;
    return this.#foldedAt[entry + 1]! - start >= text.length &&
      codesStartWith(this.#folded, start, text);
  }

  /** True when `term` starts a word of the entry (at its start or right after a space). */
  startsAWord(entry: number, term: string): boolean {
    const folded = this.#folded;
    const start = this.#foldedAt[entry]!;
    const last = this.#foldedAt[entry + 1]! - term.length;
    // Bounded by the entry: an unbounded search would run on into the names after it.
    for (let at = start; at <= last; at++) {
      if ((at === start || folded[at - 1] === SPACE) && codesStartWith(folded, at, term)) {
        return true;
      }
    }
    return false;
  }

  /** True when `term` is a whole word of the entry. */
  hasWord(entry: number, term: string): boolean {
    const folded = this.#folded;
    const start = this.#foldedAt[entry]!;
    const end = this.#foldedAt[entry + 1]!;
    for (let at = start; at <= end - term.length;) {
      const stop = nextSpace(folded, at, end);
      if (stop - at === term.length && codesStartWith(folded, at, term)) return true;
      at = stop + 1;
    }
    return false;
  }

  /** True when `term` occurs anywhere in the entry's folded name. */
  contains(entry: number, term: string): boolean {
    const folded = this.#folded;
    const last = this.#foldedAt[entry + 1]! - term.length;
    for (let at = this.#foldedAt[entry]!; at <= last; at++) {
      if (codesStartWith(folded, at, term)) return true;
    }
    return false;
  }

  /**
   * The smallest `cost(text, start, length)` over the entry's words (`Infinity` when it has
   * none), each word given as its place in the folded names, unsliced.
   */
  cheapestWord(
    entry: number,
    cost: (text: Codes, start: number, length: number) => number,
  ): number {
    const folded = this.#folded;
    const end = this.#foldedAt[entry + 1]!;
    let best = Infinity;
    for (let at = this.#foldedAt[entry]!; at < end;) {
      const stop = nextSpace(folded, at, end);
      const value = cost(folded, at, stop - at);
      if (value < best) best = value;
      at = stop + 1;
    }
    return best;
  }

  /** Entries whose folded name holds `term` anywhere, ascending, each once. */
  entriesContaining(term: string): number[] {
    const found: number[] = [];
    if (term === "") return found;
    const folded = this.#folded;
    const foldedAt = this.#foldedAt;
    const first = term.charCodeAt(0);
    let entry = 0;
    for (let at = folded.indexOf(first); at !== -1; at = folded.indexOf(first, at + 1)) {
      if (!codesStartWith(folded, at, term)) continue;
      // The entry whose span holds `at` (spans ascend, so search on from the last one).
      while (foldedAt[entry + 1]! <= at) entry++;
      // A match across two names' boundary is no match.
      if (at + term.length > foldedAt[entry + 1]!) continue;
      if (found[found.length - 1] !== entry) found.push(entry);
    }
    return found;
  }

  /** Word `index` of the sorted vocabulary (a fresh string). */
  word(index: number): string {
    return textOf(this.#words, this.#wordAt[index]!, this.#wordAt[index + 1]!);
  }

  /** Distinct words held (none when packed without). */
  get wordCount(): number {
    return this.hasWords ? this.#masks.length : 0;
  }

  /** The range `[first, end)` of the sorted words starting with `term` (empty without words). */
  wordsStarting(term: string): readonly [number, number] {
    if (!this.hasWords) return [0, 0];
    return [this.#bound(term, false), this.#bound(term, true)];
  }

  /**
   * How much the words `[first, end)` post, in bytes: an estimate of their entries (one to three
   * bytes each), enough to choose the rarest term.
   */
  postings(first: number, end: number): number {
    return this.#postAt[end]! - this.#postAt[first]!;
  }

  /** Calls `visit` with every entry posted under `word`, ascending. */
  forEachPosted(word: number, visit: (entry: number) => void): void {
    const posts = this.#posts;
    const end = this.#postAt[word + 1]!;
    let entry = -1;
    for (let at = this.#postAt[word]!; at < end;) {
      let delta = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = posts[at++]!;
        delta |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte >= 0x80);
      entry += delta;
      visit(entry);
    }
  }

  /**
   * Calls `visit(word, cost)` for every word whose `cost` is finite, after two filters for a
   * term of `length` letters `mask` within `max` edits: a word shorter than `length - max` (or,
   * unless `prefixOnly`, longer than `length + max`) is skipped, and so is one lacking more
   * than `max` of the letters of `mask` (or, unless `prefixOnly`, holding more than `max`
   * letters `mask` lacks): each edit changes at most one letter in either; and so is one whose
   * first five letters hold none of `head`, the term's first `max + 1` (`max` at most 2). The
   * scan of a Han term; any other takes {@linkcode scanWordsNear}.
   */
  scanWords(
    mask: number,
    head: number,
    length: number,
    max: number,
    prefixOnly: boolean,
    cost: (text: Codes, start: number, length: number) => number,
    visit: (word: number, cost: number) => void,
  ): void {
    const masks = this.#masks;
    const heads = this.#heads;
    const wordAt = this.#wordAt;
    const words = this.#words;
    if (!this.hasWords) return;
    const useHead = max <= 2 && head !== 0;
    const shortest = length - max;
    const longest = prefixOnly ? Infinity : length + max;
    for (let word = 0; word < masks.length; word++) {
      const start = wordAt[word]!;
      const size = wordAt[word + 1]! - start;
      if (size < shortest || size > longest) continue;
      if (useHead && (heads[word]! & head) === 0) continue;
      const other = masks[word]!;
      if (bitCount(mask & ~other) > max) continue;
      if (!prefixOnly && bitCount(other & ~mask) > max) continue;
      const value = cost(words, start, size);
      if (value !== Infinity) visit(word, value);
    }
  }

  /**
   * Calls `visit(word, cost)` for every word within `max` edits of `term` (not Han): its
   * optimal-string-alignment distance, as `distanceWithin` counts it - with `prefix`, to the
   * word's closest start; without, to the whole word, or 0 when the word starts with `term`.
   * The sorted vocabulary is walked as a trie: the rows of the distance table a word shares
   * with the one before (its common start) are kept, and a start already beyond `max` settles
   * every word that follows it at once, so a scan costs a few rows per distinct start rather
   * than a table per word.
   */
  scanWordsNear(
    term: string,
    max: number,
    prefix: boolean,
    visit: (word: number, cost: number) => void,
  ): void {
    const count = this.#masks.length;
    if (!this.hasWords || count === 0) return;
    const words = this.#words;
    const wordAt = this.#wordAt;
    const columns = term.length + 1;
    const over = max + 1;
    const last = term.length;
    let longest = 0;
    for (let word = 0; word < count; word++) {
      longest = Math.max(longest, wordAt[word + 1]! - wordAt[word]!);
    }
    const table = nearTable((longest + 1) * columns, longest + 1);
    const rows = table.rows;
    // closest[d]: the least distance of `term` to a start of the path's first d letters.
    const closest = table.closest;
    for (let column = 0; column < columns; column++) {
      rows[column] = column <= max ? column : over;
    }
    closest[0] = rows[last]!;
    let path = 0;
    let valid = 0;
    for (let word = 0; word < count;) {
      const start = wordAt[word]!;
      const size = wordAt[word + 1]! - start;
      let depth = 0;
      const shared = Math.min(valid, size);
      while (depth < shared && words[start + depth] === words[path + depth]) depth++;
      path = start;
      let settled = false;
      while (depth < size) {
        depth++;
        if (nearRow(rows, columns, depth, words, start, term, max) > max) {
          settled = true;
          break;
        }
        // The term's whole length lies within the band only near the diagonal.
        const here = Math.abs(depth - last) <= max ? rows[depth * columns + last]! : over;
        closest[depth] = Math.min(closest[depth - 1]!, here);
      }
      valid = settled ? depth - 1 : depth;
      const startsWithTerm = size >= last && valid >= last && rows[last * columns + last] === 0;
      if (settled) {
        // Every word starting with these `depth` letters costs the same: no row past them can
        // come within `max` again.
        const cost = prefix ? closest[depth - 1]! : startsWithTerm ? 0 : over;
        const end = this.#pastStart(word, start, depth);
        if (cost <= max) { for (let next = word; next < end; next++) visit(next, cost); }
        word = end;
        continue;
      }
      const cost = prefix
        ? closest[size]!
        : startsWithTerm
        ? 0
        : Math.abs(size - last) <= max
        ? rows[size * columns + last]!
        : over;
      if (cost <= max) visit(word, cost);
      word++;
    }
  }

  /**
   * Calls `visit(entry)` for every entry that may hold a word within `max` edits of a term of
   * letters `mask` (the entry lacks at most `max` of them): the fuzzy scan of names packed
   * without words.
   */
  scanEntries(mask: number, max: number, visit: (entry: number) => void): void {
    if (this.hasWords) return;
    const masks = this.#masks;
    for (let entry = 0; entry < masks.length; entry++) {
      if (bitCount(mask & ~masks[entry]!) <= max) visit(entry);
    }
  }

  /**
   * Bytes the packed columns take (typed arrays and strings as V8 stores them), without the
   * few objects around them.
   */
  get bytes(): number {
    return this.#ids.byteLength + this.#rarity.byteLength + this.#type.byteLength +
      this.#names.byteLength + this.#nameAt.byteLength + this.#folded.byteLength +
      this.#foldedAt.byteLength + this.#words.byteLength + this.#wordAt.byteLength +
      this.#masks.byteLength + this.#heads.byteLength + this.#postAt.byteLength +
      this.#posts.byteLength;
  }

  /**
   * The first word >= `term` (`after` false), or the first past every word starting with it
   * (`after` true), by binary search.
   */
  #bound(term: string, after: boolean): number {
    let low = 0;
    let high = this.#masks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = this.#comparePrefix(middle, term);
      if (order < 0 || (after && order === 0)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The first word after `word` that does not start with `words[start, start + length)`. */
  #pastStart(word: number, start: number, length: number): number {
    const words = this.#words;
    const wordAt = this.#wordAt;
    let low = word + 1;
    let high = this.#masks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const from = wordAt[middle]!;
      const size = wordAt[middle + 1]! - from;
      let order = 0;
      for (let at = 0; at < Math.min(size, length) && order === 0; at++) {
        order = words[from + at]! - words[start + at]!;
      }
      if (order === 0 && size < length) order = -1;
      if (order <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The word's order against `term`: 0 when it starts with it. */
  #comparePrefix(word: number, term: string): number {
    return this.#compareCodes(word, term) || (this.#wordLength(word) < term.length ? -1 : 0);
  }
}

/** `array`, or a copy at least `size` long (doubling) when it is shorter. */
function grownInt32(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (array.length >= size) return array;
  const next = new Int32Array(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

/** {@linkcode grownInt32} for bytes. */
function grownBytes(array: Uint8Array<ArrayBuffer>, size: number): Uint8Array<ArrayBuffer> {
  if (array.length >= size) return array;
  const next = new Uint8Array(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

/** {@linkcode grownInt32} for character codes. */
function grownCodes(array: Uint16Array<ArrayBuffer>, size: number): Uint16Array<ArrayBuffer> {
  if (array.length >= size) return array;
  const next = new Uint16Array(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

/** Where the word starting at `at` ends: the next space before `end`, or `end`. */
function nextSpace(codes: Codes, at: number, end: number): number {
  for (let index = at; index < end; index++) if (codes[index] === SPACE) return index;
  return end;
}

function varintLength(value: number): number {
  let length = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    length++;
  }
  return length;
}

function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  bytes[at++] = value;
  return at;
}

/** The distance table of {@linkcode PackedNames.scanWordsNear}, reused (one search at a time). */
let near = { rows: new Int32Array(0), closest: new Int32Array(0) };

function nearTable(cells: number, depths: number): typeof near {
  if (near.rows.length < cells || near.closest.length < depths) {
    near = {
      rows: new Int32Array(Math.max(cells, near.rows.length * 2)),
      closest: new Int32Array(Math.max(depths, near.closest.length * 2)),
    };
  }
  return near;
}

/**
 * Row `depth` of the distance table of `term` against the word at `start` (its letter
 * `depth - 1`), within the band of `max` around the diagonal (cells beside it hold `max + 1`);
 * returns the row's least value.
 */
function nearRow(
  rows: Int32Array,
  columns: number,
  depth: number,
  words: Codes,
  start: number,
  term: string,
  max: number,
): number {
  const over = max + 1;
  const base = depth * columns;
  const previous = base - columns;
  const before = previous - columns;
  const letter = words[start + depth - 1]!;
  const letterBefore = depth > 1 ? words[start + depth - 2]! : -1;
  const low = Math.max(0, depth - max);
  const high = Math.min(columns - 1, depth + max);
  if (low > 0) rows[base + low - 1] = over;
  let least = over;
  for (let column = low; column <= high; column++) {
    let value: number;
    if (column === 0) {
      value = depth;
    } else {
      const code = term.charCodeAt(column - 1);
      value = Math.min(
        rows[previous + column]! + 1,
        rows[base + column - 1]! + 1,
        rows[previous + column - 1]! + (code === letter ? 0 : 1),
      );
      if (
        depth > 1 && column > 1 && letter === term.charCodeAt(column - 2) &&
        letterBefore === code
      ) {
        value = Math.min(value, rows[before + column - 2]! + 1);
      }
    }
    rows[base + column] = value;
    if (value < least) least = value;
  }
  if (high < columns - 1) rows[base + high + 1] = over;
  return least;
}
