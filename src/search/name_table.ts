/**
 * The in-memory side of the item-name index: every known name, folded once, with a word →
 * ids posting map, and the ranked search over them. Pure (no I/O, no clock): the KV side
 * (`name_store.ts`) feeds it and `name_index.ts` keeps the two in step.
 *
 * Ranking, in tiers, each tier entirely before the next:
 *
 * 1. **exact** — the folded name equals the folded query;
 * 2. **prefix** — the folded name starts with the folded query;
 * 3. **word** — every query word starts a word of the name, in any order;
 * 4. **fuzzy** — every query word is within a few edits (typos) of a word of the name (the last
 *    one may still be a prefix being typed); only searched when the tiers above leave room.
 *
 * Within a tier: fewer edits (fuzzy), then fewer query words matched only as the start of a
 * longer word, then the shorter name, then the lower id — so equal input always gives the same
 * order.
 *
 * @module
 */

import { distanceWithin, foldName, wordsOf } from "./normalize.ts";

/** One indexed item: all the index keeps. */
export interface NameEntry {
  readonly id: number;
  readonly name: string;
  readonly rarity: string;
  readonly type: string;
}

/**
 * An indexed item and its folded name, in one object. Its words are not kept: a term starts a
 * word exactly where it starts the folded name or follows one of its single spaces, which a
 * search checks on the folded name itself (see {@linkcode startsAWord}).
 */
interface Row extends NameEntry {
  readonly folded: string;
}

/** A ranked candidate: lower keys first, compared in order. */
interface Ranked {
  readonly row: Row;
  readonly tier: number;
  readonly edits: number;
  readonly partial: number;
}

/**
 * Query words considered; later ones are ignored. Item names have far fewer words, and each
 * word costs a scan of the vocabulary.
 */
export const MAX_TERMS = 16;

/** Distinct rarities and types kept as one shared string each (the API has a few dozen). */
const MAX_INTERNED = 256;

const TIER_EXACT = 0;
const TIER_PREFIX = 1;
const TIER_WORD = 2;
const TIER_FUZZY = 3;

/** Typos forgiven in a query word of this length: none in short words, where they mislead. */
function editsAllowed(length: number): number {
  if (length <= 2) return 0;
  return length <= 5 ? 1 : 2;
}

/**
 * Every indexed name and the search over them. Held in memory by every instance (75,000 names at
 * full scale), so a name costs one row object, its two strings and a slot per word in the
 * postings: V8 grows the heap to several times what is live, so each byte kept here is paid
 * several times over in resident memory (docs/performance.md, "Memory").
 */
export class NameTable {
  readonly #rows = new Map<number, Row>();
  /** Word → ids of the names with that word. */
  readonly #postings = new Map<string, number[]>();
  /** The posting map's words as an array (faster to scan), rebuilt after words come or go. */
  #vocabulary: string[] | undefined;
  /** One string per rarity and type, shared by every row that has it. */
  readonly #interned = new Map<string, string>();

  /** How many names are indexed. */
  get size(): number {
    return this.#rows.size;
  }

  /** The entry of `id`, if indexed. */
  get(id: number): NameEntry | undefined {
    const row = this.#rows.get(id);
    return row === undefined ? undefined : entryOf(row);
  }

  /** True when `entry` would change the table (a new id, or a new name, rarity or type). */
  differs(entry: NameEntry): boolean {
    const known = this.#rows.get(entry.id);
    return known === undefined || known.name !== entry.name || known.rarity !== entry.rarity ||
      known.type !== entry.type;
  }

  /** Adds or replaces entries by id; returns how many changed the table. */
  upsert(entries: Iterable<NameEntry>): number {
    let changed = 0;
    for (const entry of entries) {
      if (!this.differs(entry)) continue;
      changed++;
      const old = this.#rows.get(entry.id);
      if (old !== undefined) this.#unpost(old);
      // Only the four fields, so a caller's object (an upstream record) is not retained whole.
      const row: Row = {
        id: entry.id,
        name: entry.name,
        rarity: this.#intern(entry.rarity),
        type: this.#intern(entry.type),
        folded: foldName(entry.name),
      };
      this.#rows.set(entry.id, row);
      for (const word of distinctWords(row.folded)) {
        const ids = this.#postings.get(word);
        if (ids === undefined) {
          this.#postings.set(word, [entry.id]);
          this.#vocabulary = undefined;
        } else {
          ids.push(entry.id);
        }
      }
    }
    return changed;
  }

  /**
   * The best `limit` entries for `query`, ranked as the module describes; empty when the query
   * has no letter or digit.
   */
  search(query: string, limit: number): NameEntry[] {
    const folded = foldName(query);
    const terms = distinctWords(folded).slice(0, MAX_TERMS);
    if (terms.length === 0 || limit < 1) return [];
    // Candidates come from the postings of the term with the fewest; the others are checked
    // on each candidate's folded name, so a common word ("of") never sets the cost of a search.
    const starting = terms.map((term) => this.#wordsStarting(term));
    const postings = starting.map((words) => this.#postingCount(words));
    const driver = postings.indexOf(Math.min(...postings));
    const spaced = terms.map((term) => ` ${term}`);
    const best = new TopK(limit);
    const seen = new Set<number>();
    for (const row of this.#rowsWith(starting[driver] ?? [])) {
      if (!terms.every((term, index) => startsAWord(row.folded, term, spaced[index] ?? term))) {
        continue;
      }
      seen.add(row.id);
      const tier = row.folded === folded
        ? TIER_EXACT
        : row.folded.startsWith(folded)
        ? TIER_PREFIX
        : TIER_WORD;
      best.offer({ row, tier, edits: 0, partial: partialTerms(terms, row) });
    }
    if (best.size < limit) this.#fuzzy(terms, fuzzyDriver(terms, postings), seen, best);
    return best.sorted().map((ranked) => entryOf(ranked.row));
  }

  /**
   * Fuzzy tier: every term within its allowed edits of a word of the name. The vocabulary is
   * scanned for the driver term only; the other terms are compared with each candidate's own
   * words (memoised per word).
   */
  #fuzzy(terms: readonly string[], driver: string, seen: ReadonlySet<number>, best: TopK): void {
    const last = terms.length - 1;
    const near = this.#wordsNear(driver, terms.lastIndexOf(driver) === last);
    const others = terms.filter((term) => term !== driver);
    const memo = others.map(() => new Map<string, number>());
    for (const row of this.#rowsWith([...near.keys()])) {
      if (seen.has(row.id)) continue;
      const words = wordsOf(row.folded);
      let edits = Math.min(...words.map((word) => near.get(word) ?? Infinity));
      for (const [index, term] of others.entries()) {
        const known = memo[index] ?? new Map<string, number>();
        let cheapest = Infinity;
        for (const word of words) {
          let cost = known.get(word);
          if (cost === undefined) {
            cost = wordCost(term, word, term === terms[last]);
            known.set(word, cost);
          }
          cheapest = Math.min(cheapest, cost);
        }
        edits += cheapest;
      }
      if (edits === Infinity) continue;
      best.offer({ row, tier: TIER_FUZZY, edits, partial: partialTerms(terms, row) });
    }
  }

  /** The distinct rows indexed under any of `words`. */
  *#rowsWith(words: Iterable<string>): Generator<Row> {
    const visited = new Set<number>();
    for (const word of words) {
      for (const id of this.#postings.get(word) ?? []) {
        if (visited.has(id)) continue;
        visited.add(id);
        const row = this.#rows.get(id);
        if (row !== undefined) yield row;
      }
    }
  }

  #postingCount(words: readonly string[]): number {
    let count = 0;
    for (const word of words) count += this.#postings.get(word)?.length ?? 0;
    return count;
  }

  /** Indexed words starting with `term`. */
  #wordsStarting(term: string): string[] {
    const words: string[] = [];
    for (const word of this.#words()) if (word.startsWith(term)) words.push(word);
    return words;
  }

  /** Indexed words within the allowed edits of `term`, with their cost (see `wordCost`). */
  #wordsNear(term: string, typing: boolean): Map<string, number> {
    const words = new Map<string, number>();
    for (const word of this.#words()) {
      const cost = wordCost(term, word, typing);
      if (cost !== Infinity) words.set(word, cost);
    }
    return words;
  }

  #words(): readonly string[] {
    this.#vocabulary ??= [...this.#postings.keys()];
    return this.#vocabulary;
  }

  #unpost(row: Row): void {
    for (const word of distinctWords(row.folded)) {
      const ids = this.#postings.get(word);
      if (ids === undefined) continue;
      const at = ids.indexOf(row.id);
      if (at !== -1) ids.splice(at, 1);
      if (ids.length === 0) {
        this.#postings.delete(word);
        this.#vocabulary = undefined;
      }
    }
  }

  /** The table's one copy of `text` (a rarity or a type). */
  #intern(text: string): string {
    const known = this.#interned.get(text);
    if (known !== undefined) return known;
    if (this.#interned.size < MAX_INTERNED) this.#interned.set(text, text);
    return text;
  }
}

/** The entry a row answers with: its four fields, a fresh object the caller may keep. */
function entryOf(row: Row): NameEntry {
  return { id: row.id, name: row.name, rarity: row.rarity, type: row.type };
}

/** The distinct words of a folded text, in order. */
function distinctWords(folded: string): string[] {
  return [...new Set(wordsOf(folded))];
}

/**
 * True when `term` starts a word of `folded` (single-spaced words, as {@linkcode foldName}
 * leaves them): at its start or right after a space. `spaced` is `" " + term`, built once per
 * search.
 */
function startsAWord(folded: string, term: string, spaced: string): boolean {
  return folded.startsWith(term) || folded.includes(spaced);
}

/** True when `term` is a whole word of `folded`. */
function hasWord(folded: string, term: string): boolean {
  for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + 1)) {
    const end = at + term.length;
    if ((at === 0 || folded[at - 1] === " ") && (end === folded.length || folded[end] === " ")) {
      return true;
    }
  }
  return false;
}

/**
 * The term whose near words the fuzzy tier scans the vocabulary for: the longest (long words
 * have few neighbours), among those the one starting the fewest postings.
 */
function fuzzyDriver(terms: readonly string[], postings: readonly number[]): string {
  let driver = 0;
  for (const [index, term] of terms.entries()) {
    const current = terms[driver] ?? "";
    const longer = term.length > current.length;
    const rarer = term.length === current.length &&
      (postings[index] ?? 0) < (postings[driver] ?? 0);
    if (longer || rarer) driver = index;
  }
  return terms[driver] ?? "";
}

/** Query words that match a word of the row only as its start. */
function partialTerms(terms: readonly string[], row: Row): number {
  return terms.filter((term) => !hasWord(row.folded, term)).length;
}

/**
 * Edits needed for `term` to match `word`: 0 when the word starts with it; else the bounded
 * edit distance; and for the term being typed (the last), also the distance to the word's
 * start. `Infinity` when over the allowance.
 */
function wordCost(term: string, word: string, typing: boolean): number {
  if (word.startsWith(term)) return 0;
  const max = editsAllowed(term.length);
  if (max === 0) return Infinity;
  let cost = distanceWithin(term, word, max);
  if (typing && cost > max && word.length > term.length) {
    cost = distanceWithin(term, word, max, term.length);
  }
  return cost <= max ? cost : Infinity;
}

function compare(a: Ranked, b: Ranked): number {
  return a.tier - b.tier || a.edits - b.edits || a.partial - b.partial ||
    a.row.folded.length - b.row.folded.length || a.row.id - b.row.id;
}

/** Keeps the best `limit` candidates offered, without sorting them all. */
class TopK {
  readonly #limit: number;
  readonly #kept: Ranked[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#kept.length;
  }

  offer(candidate: Ranked): void {
    const kept = this.#kept;
    const worst = kept.at(-1);
    if (kept.length >= this.#limit && worst !== undefined && compare(candidate, worst) >= 0) {
      return;
    }
    let index = kept.length;
    for (; index > 0; index--) {
      const before = kept[index - 1];
      if (before === undefined || compare(candidate, before) >= 0) break;
    }
    kept.splice(index, 0, candidate);
    if (kept.length > this.#limit) kept.pop();
  }

  sorted(): readonly Ranked[] {
    return this.#kept;
  }
}
