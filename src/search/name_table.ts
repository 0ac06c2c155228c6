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

interface Row {
  readonly entry: NameEntry;
  readonly folded: string;
  readonly words: readonly string[];
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

const TIER_EXACT = 0;
const TIER_PREFIX = 1;
const TIER_WORD = 2;
const TIER_FUZZY = 3;

/** Typos forgiven in a query word of this length: none in short words, where they mislead. */
function editsAllowed(length: number): number {
  if (length <= 2) return 0;
  return length <= 5 ? 1 : 2;
}

/** Every indexed name and the search over them. */
export class NameTable {
  readonly #rows = new Map<number, Row>();
  readonly #postings = new Map<string, Set<number>>();
  /** The posting map's words as an array (faster to scan), rebuilt after words come or go. */
  #vocabulary: string[] | undefined;

  /** How many names are indexed. */
  get size(): number {
    return this.#rows.size;
  }

  /** The entry of `id`, if indexed. */
  get(id: number): NameEntry | undefined {
    return this.#rows.get(id)?.entry;
  }

  /** True when `entry` would change the table (a new id, or a new name, rarity or type). */
  differs(entry: NameEntry): boolean {
    const known = this.#rows.get(entry.id)?.entry;
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
      const folded = foldName(entry.name);
      const row: Row = { entry: copy(entry), folded, words: [...new Set(wordsOf(folded))] };
      this.#rows.set(entry.id, row);
      for (const word of row.words) {
        let ids = this.#postings.get(word);
        if (ids === undefined) {
          ids = new Set();
          this.#postings.set(word, ids);
          this.#vocabulary = undefined;
        }
        ids.add(entry.id);
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
    const terms = [...new Set(wordsOf(folded))].slice(0, MAX_TERMS);
    if (terms.length === 0 || limit < 1) return [];
    // Candidates come from the postings of the term with the fewest; the others are checked
    // on each candidate's own words, so a common word ("of") never sets the cost of a search.
    const starting = terms.map((term) => this.#wordsStarting(term));
    const postings = starting.map((words) => this.#postingCount(words));
    const driver = postings.indexOf(Math.min(...postings));
    const best = new TopK(limit);
    const seen = new Set<number>();
    for (const row of this.#rowsWith(starting[driver] ?? [])) {
      if (!terms.every((term) => row.words.some((word) => word.startsWith(term)))) continue;
      seen.add(row.entry.id);
      const tier = row.folded === folded
        ? TIER_EXACT
        : row.folded.startsWith(folded)
        ? TIER_PREFIX
        : TIER_WORD;
      best.offer({ row, tier, edits: 0, partial: partialTerms(terms, row) });
    }
    if (best.size < limit) this.#fuzzy(terms, fuzzyDriver(terms, postings), seen, best);
    return best.sorted().map((ranked) => ranked.row.entry);
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
      if (seen.has(row.entry.id)) continue;
      let edits = Math.min(...row.words.map((word) => near.get(word) ?? Infinity));
      for (const [index, term] of others.entries()) {
        const known = memo[index] ?? new Map<string, number>();
        let cheapest = Infinity;
        for (const word of row.words) {
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
    for (const word of words) count += this.#postings.get(word)?.size ?? 0;
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
    for (const word of row.words) {
      const ids = this.#postings.get(word);
      ids?.delete(row.entry.id);
      if (ids?.size === 0) {
        this.#postings.delete(word);
        this.#vocabulary = undefined;
      }
    }
  }
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
  return terms.filter((term) => !row.words.includes(term)).length;
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

/** A detached copy, so a caller's object (an upstream record) is not retained whole. */
function copy(entry: NameEntry): NameEntry {
  return { id: entry.id, name: entry.name, rarity: entry.rarity, type: entry.type };
}

function compare(a: Ranked, b: Ranked): number {
  return a.tier - b.tier || a.edits - b.edits || a.partial - b.partial ||
    a.row.folded.length - b.row.folded.length || a.row.entry.id - b.row.entry.id;
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
