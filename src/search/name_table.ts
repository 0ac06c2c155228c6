/**
 * The in-memory side of the item-name index: every known name in each of the five languages,
 * folded once, packed per language (`packed_names.ts`), and the ranked search over all of them
 * at once. Pure (no I/O, no clock): the KV side (`name_store.ts`) feeds it and `name_index.ts`
 * keeps the two in step.
 *
 * Ranking, in tiers, each tier entirely before the next:
 *
 * 1. **exact** - the folded name equals the folded query;
 * 2. **prefix** - the folded name starts with the folded query;
 * 3. **word** - every query word starts a word of the name, in any order (a word of Han
 *    characters may stand anywhere in the name: Chinese names have no word breaks);
 * 4. **fuzzy** - every query word is within a few edits (typos) of a word of the name (the last
 *    one may still be a prefix being typed); only searched when the tiers above leave room.
 *
 * Within a tier: fewer edits (fuzzy), then fewer query words matched only as the start of a
 * longer word, then the shorter name, then the preferred language (the one asked for, else
 * English, German, French, Spanish, Chinese), then the lower id - so equal input always gives
 * the same order. An item matched in several languages is listed once, in its best match.
 *
 * @module
 */

import { type Lang, LANGUAGES } from "../gw2/types.ts";
import {
  type Apostrophes,
  type Codes,
  codesStartWith,
  distanceWithin,
  foldName,
  isHanTerm,
  mayBeWithin,
} from "./normalize.ts";
import { bitCount, letterMask, PackedNames } from "./packed_names.ts";
import { runToEnd } from "../async/slices.ts";

/** One indexed item in one language: all the index keeps. */
export interface NameEntry {
  readonly id: number;
  readonly name: string;
  readonly rarity: string;
  readonly type: string;
}

/** A search match: the entry, and the language whose name matched. */
export interface NameMatch extends NameEntry {
  readonly lang: Lang;
}

/**
 * Query words considered; later ones are ignored. Item names have far fewer words, and each
 * word costs a scan of the vocabulary.
 */
export const MAX_TERMS = 16;

/** How each language's names fold their apostrophes: French elides ("d'ectoplasme"). */
const APOSTROPHES: Readonly<Record<Lang, Apostrophes>> = {
  en: "drop",
  de: "drop",
  fr: "split",
  es: "drop",
  zh: "drop",
};

const TIER_EXACT = 0;
const TIER_PREFIX = 1;
const TIER_WORD = 2;
const TIER_FUZZY = 3;

/** The most distinct rarities and types coded (a code is a byte); beyond it, "" (code 0). */
const MAX_CODES = 256;

/**
 * Changed entries a language keeps beside its packed names before packing again: every search
 * scans them as objects (~1 µs a row), while packing costs ~30 ms at 75,000 names.
 */
function overlayLimit(packed: number): number {
  return Math.max(512, Math.min(2_048, packed >> 5));
}

/** A load of one language's names ({@linkcode NameTable.loader}). */
export interface NameLoader {
  /**
   * Folds and packs `entries` (ids ascending, above every id added before).
   *
   * @throws {RangeError} when an id is out of order
   */
  add(entries: readonly NameEntry[]): void;
  /** Packs what was added, as steps, and puts it in place; returns the names loaded. */
  finish(): Generator<void, number, undefined>;
}

/** Typos forgiven in a query word of this length: none in short words, where they mislead. */
function editsAllowed(length: number): number {
  if (length <= 2) return 0;
  return length <= 5 ? 1 : 2;
}

/** An entry changed since its language was last packed. */
interface OverlayRow {
  readonly id: number;
  readonly name: string;
  readonly folded: string;
  readonly rarity: number;
  readonly type: number;
  /** The letters of `folded` (`letterMask`): a search skips most rows on it alone. */
  readonly mask: number;
}

/** A ranked candidate: lower keys first, compared in order. */
interface Hit {
  readonly id: number;
  readonly tier: number;
  readonly edits: number;
  readonly partial: number;
  readonly length: number;
  /** The language's place in the search's preference order. */
  readonly rank: number;
  readonly names: LangNames;
  /** Its packed entry, or -1 for an overlay row. */
  readonly entry: number;
  readonly row: OverlayRow | undefined;
}

/** A query as one language folds it. */
interface Folded {
  readonly text: string;
  readonly terms: readonly string[];
  /** Per term: made of Han characters, so matched anywhere. */
  readonly han: readonly boolean[];
}

/**
 * Every indexed name, in five languages, and the search over them. Held in memory by every
 * instance (75,000 items a language at full scale), packed: a name costs its UTF-8 bytes, its
 * folded form, a few offsets and a varint per word (measured: `deno task bench`,
 * docs/performance.md).
 */
export class NameTable {
  readonly #languages: ReadonlyMap<Lang, LangNames>;
  readonly #strings: string[] = [""];
  readonly #codes = new Map<string, number>([["", 0]]);
  #distinct = 0;

  constructor() {
    this.#languages = new Map(LANGUAGES.map((lang) => [lang, new LangNames(lang, this.#strings)]));
  }

  /**
   * Items indexed: ids with a name in at least one language. Kept by `upsert` (an id new to
   * every language adds one): every search reports it, and counting 5 x 75,000 ids again after
   * each page the crawl wrote cost searches 1-10 ms each while a crawl ran.
   */
  get size(): number {
    return this.#distinct;
  }

  /** Names indexed in `lang`. */
  sizeOf(lang: Lang): number {
    return this.#names(lang).size;
  }

  /** The entry of `id` in `lang`, if indexed. */
  get(id: number, lang: Lang = "en"): NameEntry | undefined {
    return this.#names(lang).get(id);
  }

  /** The name of `id` in `lang`, if indexed. */
  nameOf(id: number, lang: Lang = "en"): string | undefined {
    return this.#names(lang).nameOf(id);
  }

  /** True when `entry` would change the table in `lang` (a new id, or a new name, rarity or type). */
  differs(entry: NameEntry, lang: Lang = "en"): boolean {
    const known = this.#names(lang).get(entry.id);
    return known === undefined || known.name !== entry.name || known.rarity !== entry.rarity ||
      known.type !== entry.type;
  }

  /**
   * Adds or replaces entries of `lang` by id; returns how many changed the table. Packs the
   * language's changes once they pass their limit, at once (see {@linkcode NameTable.stage}
   * for the form that leaves packing to the caller).
   */
  upsert(entries: Iterable<NameEntry>, lang: Lang = "en"): number {
    const changed = this.stage(entries, lang);
    if (changed > 0) this.#names(lang).packIfDue();
    return changed;
  }

  /**
   * {@linkcode NameTable.upsert} without packing: the changes wait beside the packed names
   * until the caller packs them ({@linkcode NameTable.packDue}, {@linkcode NameTable.packSteps}),
   * in slices - the name index's way, so a pack never holds the event loop.
   */
  stage(entries: Iterable<NameEntry>, lang: Lang = "en"): number {
    const names = this.#names(lang);
    let changed = 0;
    for (const entry of entries) {
      if (!this.differs(entry, lang)) continue;
      changed++;
      if (!this.#indexed(entry.id)) this.#distinct++;
      // Only the four fields, so a caller's object (an upstream record) is not retained whole.
      const folded = foldName(entry.name, APOSTROPHES[lang]);
      names.set({
        id: entry.id,
        name: entry.name,
        folded,
        rarity: this.#code(entry.rarity),
        type: this.#code(entry.type),
        mask: letterMask(folded),
      });
    }
    return changed;
  }

  /** True when `id` has a name in some language. */
  #indexed(id: number): boolean {
    for (const names of this.#languages.values()) if (names.has(id)) return true;
    return false;
  }

  /**
   * Packs what changed in `lang` (every language when absent) since it was last packed, however
   * little: for when no more changes are coming soon (a language's crawl is over), so the
   * changes do not wait beside the packed names as objects, scanned by every search.
   */
  pack(lang?: Lang): void {
    for (const language of lang === undefined ? LANGUAGES : [lang]) {
      runToEnd(this.#names(language).packSteps());
    }
  }

  /** The languages whose changes have passed their limit: due to be packed. */
  packDue(): Lang[] {
    return LANGUAGES.filter((lang) => this.#names(lang).isDue());
  }

  /**
   * {@linkcode NameTable.pack} of one language as steps (`runInSlices`): the changes waiting
   * when it starts are merged into a new pack while searches go on over the old one and its
   * changes; changes made meanwhile stay waiting. One pack or load of a language at a time.
   */
  packSteps(lang: Lang): Generator<void, void, undefined> {
    return this.#names(lang).packSteps();
  }

  /**
   * Loads every name of `lang` at once - the language's whole catalogue as the store holds it,
   * handed to the loader's `add` in ascending id order (bucket by bucket) and packed straight
   * into typed arrays (no object kept per name), then `finish`ed as steps (`runInSlices`) and
   * put in place of what the language held in one step. Searches meanwhile answer from what it
   * held; changes staged meanwhile (or before) stay waiting beside the loaded names and win
   * over them, being no older. One pack or load of a language at a time.
   */
  loader(lang: Lang): NameLoader {
    const names = this.#names(lang);
    const builder = PackedNames.builder({ words: lang !== "zh" });
    const apostrophes = APOSTROPHES[lang];
    // In one step: nothing changes the table between the count and the swap.
    const install = (packed: PackedNames) => {
      this.#distinct += this.#unindexed(packed);
      names.install(packed);
    };
    return {
      add: (entries) => {
        for (const entry of entries) {
          const folded = foldName(entry.name, apostrophes);
          builder.add(
            entry.id,
            entry.name,
            folded,
            this.#code(entry.rarity),
            this.#code(entry.type),
          );
        }
      },
      *finish() {
        const packed = yield* builder.steps();
        install(packed);
        return packed.size;
      },
    };
  }

  /** Ids of `packed` that no language holds now (its own language's names and changes included). */
  #unindexed(packed: PackedNames): number {
    const held = [...this.#languages.values()];
    // The ids ascend in every pack: one walk along each, not a search per id.
    const at = new Int32Array(held.length);
    let fresh = 0;
    for (let entry = 0; entry < packed.size; entry++) {
      const id = packed.id(entry);
      let known = false;
      for (let index = 0; index < held.length; index++) {
        const names = held[index]!;
        const other = names.packedNames;
        let cursor = at[index]!;
        while (cursor < other.size && other.id(cursor) < id) cursor++;
        at[index] = cursor;
        if ((cursor < other.size && other.id(cursor) === id) || names.hasChange(id)) {
          known = true;
          break;
        }
      }
      if (!known) fresh++;
    }
    return fresh;
  }

  /**
   * The best `limit` matches for `query` over every language, ranked as the module describes
   * (`prefer` first among equals); empty when the query has no letter or digit.
   */
  search(query: string, limit: number, prefer?: Lang): NameMatch[] {
    if (limit < 1) return [];
    const folds = new Map<Apostrophes, Folded>();
    const folded = (style: Apostrophes): Folded => {
      let known = folds.get(style);
      if (known === undefined) {
        const text = foldName(query, style);
        const terms = text === "" ? [] : [...new Set(text.split(" "))].slice(0, MAX_TERMS);
        known = { text, terms, han: terms.map(isHanTerm) };
        folds.set(style, known);
      }
      return known;
    };
    const order = prefer === undefined
      ? LANGUAGES
      : [prefer, ...LANGUAGES.filter((l) => l !== prefer)];
    const best = new TopK(limit);
    const passes: { names: LangNames; query: Folded; rank: number }[] = [];
    for (const [rank, lang] of order.entries()) {
      const query = folded(APOSTROPHES[lang]);
      if (query.terms.length === 0) continue;
      const names = this.#names(lang);
      names.matchWords(query, rank, best);
      passes.push({ names, query, rank });
    }
    if (best.size < limit) {
      for (const pass of passes) pass.names.matchFuzzy(pass.query, pass.rank, best);
    }
    return best.sorted().map((hit) => hit.names.match(hit));
  }

  /** Bytes the packed names take in every language (the overlays of recent changes aside). */
  get packedBytes(): number {
    let bytes = 0;
    for (const names of this.#languages.values()) bytes += names.packedBytes;
    return bytes;
  }

  /** Changed entries waiting beside the packed names (objects, scanned by every search). */
  get pending(): number {
    let rows = 0;
    for (const names of this.#languages.values()) rows += names.pending;
    return rows;
  }

  #names(lang: Lang): LangNames {
    const names = this.#languages.get(lang);
    if (names === undefined) {
      throw new RangeError(`Cannot index names in ${lang}: unknown language`);
    }
    return names;
  }

  /** The code of a rarity or type (one shared string per distinct value). */
  #code(text: string): number {
    const known = this.#codes.get(text);
    if (known !== undefined) return known;
    if (this.#strings.length >= MAX_CODES) return 0;
    this.#strings.push(text);
    this.#codes.set(text, this.#strings.length - 1);
    return this.#strings.length - 1;
  }
}

/**
 * Scratch marks for deduplicating candidates without allocating per search: an entry is marked
 * when `marks[entry] === stamp`, and a new stamp clears every mark at once.
 */
let marks = new Int32Array(0);
let stamp = 0;

function newStamp(size: number): number {
  if (marks.length < size) marks = new Int32Array(Math.max(size, marks.length * 2));
  if (stamp === 0x7fffffff) {
    marks.fill(0);
    stamp = 0;
  }
  return ++stamp;
}

/** One language's names: packed, plus what changed since. */
class LangNames {
  readonly lang: Lang;
  readonly #strings: readonly string[];
  #packed = PackedNames.EMPTY;
  #overlay = new Map<number, OverlayRow>();
  /** Overlay ids the packed names lack. */
  #added = 0;

  constructor(lang: Lang, strings: readonly string[]) {
    this.lang = lang;
    this.#strings = strings;
  }

  get size(): number {
    return this.#packed.size + this.#added;
  }

  get packedBytes(): number {
    return this.#packed.bytes;
  }

  get pending(): number {
    return this.#overlay.size;
  }

  get(id: number): NameEntry | undefined {
    const row = this.#overlay.get(id);
    if (row !== undefined) return this.#entry(row.id, row.name, row.rarity, row.type);
    const entry = this.#packed.indexOf(id);
    if (entry === -1) return undefined;
    const packed = this.#packed;
    return this.#entry(id, packed.name(entry), packed.rarity(entry), packed.type(entry));
  }

  has(id: number): boolean {
    return this.#overlay.has(id) || this.#packed.indexOf(id) !== -1;
  }

  nameOf(id: number): string | undefined {
    const row = this.#overlay.get(id);
    if (row !== undefined) return row.name;
    const entry = this.#packed.indexOf(id);
    return entry === -1 ? undefined : this.#packed.name(entry);
  }

  set(row: OverlayRow): void {
    if (!this.#overlay.has(row.id) && this.#packed.indexOf(row.id) === -1) this.#added++;
    this.#overlay.set(row.id, row);
  }

  /** The packed names (for walking their ids). */
  get packedNames(): PackedNames {
    return this.#packed;
  }

  /** True when `id` has a change waiting beside the packed names. */
  hasChange(id: number): boolean {
    return this.#overlay.has(id);
  }

  /** Whether the overlay has grown past its limit. */
  isDue(): boolean {
    return this.#overlay.size > overlayLimit(this.#packed.size);
  }

  /** Packs the overlay into the names when it has grown past its limit. */
  packIfDue(): void {
    if (this.isDue()) runToEnd(this.packSteps());
  }

  /**
   * Packs the overlay as it is now into the names, as steps; rows changed while it runs stay
   * in the overlay (they replace the packed entry of their id).
   */
  *packSteps(): Generator<void, void, undefined> {
    if (this.#overlay.size === 0) return;
    const rows = [...this.#overlay.values()].sort((a, b) => a.id - b.id);
    const packed = yield* PackedNames.mergeSteps(this.#packed, rows, {
      words: this.lang !== "zh",
    });
    this.install(packed, rows);
  }

  /**
   * Puts `packed` in place of the packed names, and drops from the overlay the `rows` it was
   * built from (those not changed again since); every other change stays.
   */
  install(packed: PackedNames, rows: readonly OverlayRow[] = []): void {
    this.#packed = packed;
    for (const row of rows) {
      if (this.#overlay.get(row.id) === row) this.#overlay.delete(row.id);
    }
    let added = 0;
    for (const id of this.#overlay.keys()) if (packed.indexOf(id) === -1) added++;
    this.#added = added;
  }

  /** The exact, prefix and word tiers: each match offered to `best`. */
  matchWords(query: Folded, rank: number, best: TopK): void {
    const packed = this.#packed;
    const overlay = this.#overlay;
    const { terms, han, text } = query;
    // Candidates come from the term with the fewest postings (a Han term: from a scan of the
    // names); the others are checked on each candidate's folded name, so a common word ("of")
    // never sets the cost of a search.
    let driver = -1;
    let fewest = Infinity;
    let range: readonly [number, number] = [0, 0];
    for (let index = 0; index < terms.length; index++) {
      if (han[index]) continue;
      const words = packed.wordsStarting(terms[index]!);
      const count = packed.postings(words[0], words[1]);
      if (count < fewest) {
        fewest = count;
        driver = index;
        range = words;
      }
    }
    const check = (entry: number) => {
      const id = packed.id(entry);
      if (overlay.size > 0 && overlay.has(id)) return;
      for (let index = 0; index < terms.length; index++) {
        if (index === driver) continue;
        const term = terms[index]!;
        if (han[index] ? !packed.contains(entry, term) : !packed.startsAWord(entry, term)) return;
      }
      const tier = packed.foldedEquals(entry, text)
        ? TIER_EXACT
        : packed.foldedStartsWith(entry, text)
        ? TIER_PREFIX
        : TIER_WORD;
      const length = packed.foldedLength(entry);
      // Most candidates of a common word lose to what is kept: they cost no more than this.
      if (!best.admits(tier, 0, 0, length, rank, id)) return;
      let partial = 0;
      for (let index = 0; index < terms.length; index++) {
        if (!packed.hasWord(entry, terms[index]!)) partial++;
      }
      best.offer(this.#hit(entry, undefined, tier, 0, partial, length, rank));
    };
    if (driver === -1 || !packed.hasWords) {
      // Every term is Han, or the names are packed without words (Chinese): scan the names
      // for the longest term; a term not Han must still start a word there.
      let longest = 0;
      for (let index = 1; index < terms.length; index++) {
        if (terms[index]!.length > terms[longest]!.length) longest = index;
      }
      driver = han[longest] ? longest : -1;
      const found = packed.entriesContaining(terms[longest]!);
      for (let index = 0; index < found.length; index++) check(found[index]!);
    } else if (range[1] - range[0] === 1) {
      packed.forEachPosted(range[0], check);
    } else {
      const mark = newStamp(packed.size);
      // One visitor for every word (a closure per word would be garbage per word).
      const visit = (entry: number) => {
        if (marks[entry] === mark) return;
        marks[entry] = mark;
        check(entry);
      };
      for (let word = range[0]; word < range[1]; word++) packed.forEachPosted(word, visit);
    }
    // A row lacking a letter of a term cannot hold every term.
    let letters = 0;
    for (let index = 0; index < terms.length; index++) letters |= letterMask(terms[index]!);
    for (const row of overlay.values()) {
      if ((letters & ~row.mask) !== 0) continue;
      const folded = row.folded;
      if (!matchesEveryTerm(folded, terms, han)) continue;
      const tier = folded === text ? TIER_EXACT : folded.startsWith(text) ? TIER_PREFIX : TIER_WORD;
      const partial = terms.filter((term) => !hasWord(folded, term)).length;
      best.offer(this.#hit(-1, row, tier, 0, partial, folded.length, rank));
    }
  }

  /**
   * Fuzzy tier: every term within its allowed edits of a word of the name. The vocabulary is
   * scanned for the longest term only (long words have few neighbours); the other terms are
   * compared with each candidate's own words.
   */
  matchFuzzy(query: Folded, rank: number, best: TopK): void {
    const { terms, han } = query;
    const last = terms.length - 1;
    let driver = 0;
    for (const [index, term] of terms.entries()) {
      if (term.length > (terms[driver] ?? "").length) driver = index;
    }
    const term = terms[driver] ?? "";
    const allowed = editsAllowed(term.length);
    // The longest term is allowed the most typos: with none, nothing matches but what the word
    // tiers offered.
    if (allowed === 0) return;
    const costs = terms.map((other, index) => {
      const typing = index === last;
      return (text: Codes, start: number, length: number) =>
        wordCostAt(other, han[index] === true, text, start, length, typing);
    });
    const packed = this.#packed;
    // The entries near the driver, each with its cheapest cost: marked, not mapped (a search
    // makes no object per candidate).
    const mark = newStamp(packed.size);
    if (nearCost.length < packed.size) {
      nearCost = new Uint8Array(Math.max(packed.size, nearCost.length * 2));
    }
    const near: number[] = [];
    let wordCost = 0;
    const note = (entry: number) => {
      if (marks[entry] !== mark) {
        marks[entry] = mark;
        nearCost[entry] = wordCost;
        near.push(entry);
      } else if (wordCost < nearCost[entry]!) {
        nearCost[entry] = wordCost;
      }
    };
    const driverCost = costs[driver]!;
    packed.scanEntries(letterMask(term), allowed, (entry) => {
      wordCost = packed.cheapestWord(entry, driverCost);
      if (wordCost !== Infinity) note(entry);
    });
    const nearWord = (word: number, cost: number) => {
      wordCost = cost;
      packed.forEachPosted(word, note);
    };
    if (han[driver] === true) {
      packed.scanWords(
        letterMask(term),
        letterMask(term, 0, allowed + 1),
        term.length,
        allowed,
        true,
        driverCost,
        nearWord,
      );
    } else {
      packed.scanWordsNear(term, allowed, driver === last, nearWord);
    }
    for (let at = 0; at < near.length; at++) {
      const entry = near[at]!;
      if (this.#overlay.has(packed.id(entry))) continue;
      // An entry every term matches was offered by the word tiers.
      if (everyTermIn(packed, entry, terms, han)) continue;
      let edits = nearCost[entry]!;
      for (let index = 0; index < costs.length; index++) {
        if (index === driver) continue;
        edits += packed.cheapestWord(entry, costs[index]!);
        if (edits === Infinity) break;
      }
      if (edits === Infinity) continue;
      let partial = 0;
      for (let index = 0; index < terms.length; index++) {
        if (!packed.hasWord(entry, terms[index]!)) partial++;
      }
      best.offer(
        this.#hit(entry, undefined, TIER_FUZZY, edits, partial, packed.foldedLength(entry), rank),
      );
    }
    // A row within the allowance holds all but `allowed` of the longest term's letters.
    const letters = letterMask(term);
    for (const row of this.#overlay.values()) {
      if (bitCount(letters & ~row.mask) > allowed) continue;
      const folded = row.folded;
      let edits = 0;
      const codes = scratchCodes(folded);
      for (const cost of costs) {
        edits += cheapestWordOf(codes, folded.length, cost);
        if (edits === Infinity) break;
      }
      // A row every term matches was offered by the word tiers.
      if (edits === Infinity || matchesEveryTerm(folded, terms, han)) continue;
      const partial = terms.filter((other) => !hasWord(folded, other)).length;
      best.offer(this.#hit(-1, row, TIER_FUZZY, edits, partial, folded.length, rank));
    }
  }

  /** The match a hit of this language answers with. */
  match(hit: Hit): NameMatch {
    const packed = this.#packed;
    const entry = hit.row === undefined
      ? this.#entry(
        hit.id,
        packed.name(hit.entry),
        packed.rarity(hit.entry),
        packed.type(hit.entry),
      )
      : this.#entry(hit.id, hit.row.name, hit.row.rarity, hit.row.type);
    return { ...entry, lang: this.lang };
  }

  #hit(
    entry: number,
    row: OverlayRow | undefined,
    tier: number,
    edits: number,
    partial: number,
    length: number,
    rank: number,
  ): Hit {
    const id = row === undefined ? this.#packed.id(entry) : row.id;
    return { id, tier, edits, partial, length, rank, names: this, entry, row };
  }

  #entry(id: number, name: string, rarity: number, type: number): NameEntry {
    return { id, name, rarity: this.#strings[rarity] ?? "", type: this.#strings[type] ?? "" };
  }
}

/** Costs of the fuzzy tier's near entries, by entry, valid where `marks` holds its stamp. */
let nearCost = new Uint8Array(0);

/** True when every term matches packed `entry`: a Han term anywhere, any other at a word's start. */
function everyTermIn(
  packed: PackedNames,
  entry: number,
  terms: readonly string[],
  han: readonly boolean[],
): boolean {
  for (let index = 0; index < terms.length; index++) {
    const term = terms[index]!;
    if (han[index] ? !packed.contains(entry, term) : !packed.startsAWord(entry, term)) return false;
  }
  return true;
}

/** True when every term matches `folded`: a Han term anywhere, any other at a word's start. */
function matchesEveryTerm(
  folded: string,
  terms: readonly string[],
  han: readonly boolean[],
): boolean {
  for (let index = 0; index < terms.length; index++) {
    const term = terms[index]!;
    if (han[index] ? !folded.includes(term) : !startsAWord(folded, term)) return false;
  }
  return true;
}

/** True when `term` starts a word of `folded` (at its start or right after a space). */
function startsAWord(folded: string, term: string): boolean {
  // indexOf, not includes(` ${term}`): no string made per row scanned.
  for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + 1)) {
    if (at === 0 || folded.charCodeAt(at - 1) === 32) return true;
  }
  return false;
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

/** One reused buffer for a row's folded name as codes (one search at a time). */
let scratch = new Uint16Array(256);

/** `text` as codes in the reused buffer (valid until the next call). */
function scratchCodes(text: string): Uint16Array {
  if (scratch.length < text.length) scratch = new Uint16Array(text.length * 2);
  for (let at = 0; at < text.length; at++) scratch[at] = text.charCodeAt(at);
  return scratch;
}

/** The smallest `cost` over the words of the folded name `codes[0, length)`. */
function cheapestWordOf(
  codes: Codes,
  length: number,
  cost: (text: Codes, start: number, length: number) => number,
): number {
  let best = Infinity;
  for (let at = 0; at < length;) {
    let stop = codes.indexOf(32, at);
    if (stop === -1 || stop > length) stop = length;
    best = Math.min(best, cost(codes, at, stop - at));
    at = stop + 1;
  }
  return best;
}

/**
 * Edits needed for `term` to match the word `text[start, start + length)`: 0 when the word
 * starts with it (holds it anywhere, for a Han term); else the bounded edit distance - for the
 * term being typed (the last), to the closest start of the word. `Infinity` when over the
 * allowance.
 */
function wordCostAt(
  term: string,
  han: boolean,
  text: Codes,
  start: number,
  length: number,
  typing: boolean,
): number {
  if (length >= term.length && codesStartWith(text, start, term)) return 0;
  if (han) {
    for (let at = start; at <= start + length - term.length; at++) {
      if (codesStartWith(text, at, term)) return 0;
    }
  }
  const max = editsAllowed(term.length);
  if (max === 0) return Infinity;
  // The term being typed: the closest start of the word (the whole word among them).
  const span = typing ? Math.min(length, term.length + max) : length;
  if (!typing && Math.abs(length - term.length) > max) return Infinity;
  if (!mayBeWithin(term, text, max, span, start)) return Infinity;
  const cost = distanceWithin(term, text, max, span, start, typing);
  return cost <= max ? cost : Infinity;
}

function compare(a: Hit, b: Hit): number {
  return a.tier - b.tier || a.edits - b.edits || a.partial - b.partial ||
    a.length - b.length || a.rank - b.rank || a.id - b.id;
}

/** Keeps the best `limit` candidates offered, one per id, without sorting them all. */
class TopK {
  readonly #limit: number;
  readonly #kept: Hit[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#kept.length;
  }

  /**
   * False when a candidate with these keys would not be kept (the list is full of better ones);
   * true means it may be: call {@linkcode offer}.
   */
  admits(
    tier: number,
    edits: number,
    partial: number,
    length: number,
    rank: number,
    id: number,
  ): boolean {
    const worst = this.#kept.at(-1);
    if (this.#kept.length < this.#limit || worst === undefined) return true;
    const order = tier - worst.tier || edits - worst.edits || partial - worst.partial ||
      length - worst.length || rank - worst.rank || id - worst.id;
    return order < 0;
  }

  offer(candidate: Hit): void {
    const kept = this.#kept;
    const worst = kept.at(-1);
    if (kept.length >= this.#limit && worst !== undefined && compare(candidate, worst) >= 0) {
      return;
    }
    const same = kept.findIndex((hit) => hit.id === candidate.id);
    if (same !== -1) {
      if (compare(candidate, kept[same]!) >= 0) return;
      kept.splice(same, 1);
    }
    let index = kept.length;
    for (; index > 0; index--) {
      const before = kept[index - 1];
      if (before === undefined || compare(candidate, before) >= 0) break;
    }
    kept.splice(index, 0, candidate);
    if (kept.length > this.#limit) kept.pop();
  }

  sorted(): readonly Hit[] {
    return this.#kept;
  }
}
