/**
 * The achievement catalogue of one generation, in memory, and its lookups. Pure: built from the
 * entries the store reads (`layout.ts`), it answers
 *
 * - **by item**: the achievements that reward an item, then those that collect it (a bit);
 * - **by skin**: those that collect a skin;
 * - **chains**: the achievements that come before one - its `prerequisites`, and those whose
 *   reward it collects (a collection fed by its siblings' rewards) - followed to the start;
 * - **names**: an achievement's name in a language, and name search in all five at once, ranked
 *   as item names are (`src/search/name_table.ts`: exact, prefix, words, typos).
 *
 * The records are held packed (one typed array, ascending id) and the lookups as sorted pairs of
 * typed arrays, outside V8's heap like the recipe catalogue's (the real API's ~5,600 records
 * name ~20,000 items).
 *
 * @module
 */

import { type Lang, LANGUAGES } from "../gw2/types.ts";
import { type NameMatch, NameTable } from "../search/name_table.ts";
import {
  achievementAt,
  type CatalogueAchievement,
  packAchievement,
  type PageEntry,
} from "./layout.ts";

/** The most achievements a chain lists. */
export const MAX_CHAIN = 10;

/** Key -> value pairs, sorted by key then value, looked up by binary search. */
interface Pairs {
  readonly keys: Int32Array;
  readonly values: Int32Array;
}

function pairs(list: readonly (readonly [number, number])[]): Pairs {
  const sorted = [...list].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return {
    keys: Int32Array.from(sorted, ([key]) => key),
    values: Int32Array.from(sorted, ([, value]) => value),
  };
}

/** The values of `key`, ascending. */
function valuesOf({ keys, values }: Pairs, key: number): number[] {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keys[middle]! < key) low = middle + 1;
    else high = middle;
  }
  const out: number[] = [];
  for (let at = low; at < keys.length && keys[at] === key; at++) out.push(values[at]!);
  return out;
}

/** An entry of a language's pages, with its id. */
export type IndexEntry = PageEntry & { readonly id: number };

/**
 * The achievements before `start`, nearest first, each once, at most `limit`: `before(id)`
 * names the ones directly before an achievement; they are followed to the start of the chain.
 */
export function prerequisiteChain(
  start: number,
  before: (id: number) => readonly number[],
  limit = MAX_CHAIN,
): { readonly ids: readonly number[]; readonly more: number } {
  const seen = new Set([start]);
  const ids: number[] = [];
  const queue = [start];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const id of before(next)) {
      if (seen.has(id)) continue;
      seen.add(id);
      ids.push(id);
      queue.push(id);
    }
  }
  return { ids: ids.slice(0, limit), more: Math.max(0, ids.length - limit) };
}

/** One generation's achievements: records, lookups and names. */
export class AchievementIndex {
  readonly #packed: Int32Array;
  /** Offsets in `#packed`, by ascending id (`#ids`). */
  readonly #offsets: Int32Array;
  readonly #ids: Int32Array;
  readonly #rewardedBy: Pairs;
  readonly #collectedBy: Pairs;
  readonly #skinCollectedBy: Pairs;
  readonly #names: NameTable;
  readonly #languages: readonly Lang[];

  /**
   * @param english the English entries, each with its record
   * @param others the entries of other languages (names only), by language
   */
  constructor(english: readonly IndexEntry[], others: ReadonlyMap<Lang, readonly IndexEntry[]>) {
    const records = [
      ...new Map(
        english.flatMap((entry) => entry.record === undefined ? [] : [[entry.id, entry.record]]),
      ).values(),
    ].sort((a, b) => a.id - b.id);
    const numbers: number[] = [];
    this.#offsets = new Int32Array(records.length);
    this.#ids = new Int32Array(records.length);
    const rewarded: [number, number][] = [];
    const collected: [number, number][] = [];
    const skins: [number, number][] = [];
    for (const [index, record] of records.entries()) {
      this.#offsets[index] = numbers.length;
      this.#ids[index] = record.id;
      numbers.push(...packAchievement(record));
      for (const item of new Set(record.rewardItems)) rewarded.push([item, record.id]);
      for (const item of new Set(record.bitItems)) collected.push([item, record.id]);
      for (const skin of new Set(record.bitSkins)) skins.push([skin, record.id]);
    }
    this.#packed = Int32Array.from(numbers);
    this.#rewardedBy = pairs(rewarded);
    this.#collectedBy = pairs(collected);
    this.#skinCollectedBy = pairs(skins);
    const types = new Map(records.map((record) => [record.id, record.type]));
    this.#names = new NameTable();
    const table = (entries: readonly IndexEntry[], lang: Lang) =>
      this.#names.upsert(
        entries.map(({ id, name }) => ({ id, name, rarity: "", type: types.get(id) ?? "" })),
        lang,
      );
    table(english, "en");
    for (const [lang, entries] of others) if (lang !== "en") table(entries, lang);
    this.#languages = LANGUAGES.filter((lang) => lang === "en" || others.has(lang));
    for (const lang of this.#languages) this.#names.pack(lang);
  }

  /** Achievements held. */
  get size(): number {
    return this.#ids.length;
  }

  /** The languages whose names are held (English always). */
  get languages(): readonly Lang[] {
    return this.#languages;
  }

  /** The record of `id`, if held. */
  record(id: number): CatalogueAchievement | undefined {
    let low = 0;
    let high = this.#ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.#ids[middle]!;
      if (at === id) return achievementAt(this.#packed, this.#offsets[middle]!)?.record;
      if (at < id) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** The achievements rewarding `item`, then those collecting it (not again), ascending each. */
  byItem(item: number): number[] {
    const rewarding = valuesOf(this.#rewardedBy, item);
    const shown = new Set(rewarding);
    return [...rewarding, ...valuesOf(this.#collectedBy, item).filter((id) => !shown.has(id))];
  }

  /** The achievements collecting skin `skin`, ascending. */
  bySkin(skin: number): number[] {
    return valuesOf(this.#skinCollectedBy, skin);
  }

  /**
   * The achievements directly before `id`: its prerequisites, then those rewarding an item it
   * collects.
   */
  before(id: number): number[] {
    const record = this.record(id);
    if (record === undefined) return [];
    const feeders = record.bitItems.flatMap((item) => valuesOf(this.#rewardedBy, item));
    return [...new Set([...record.prerequisites, ...feeders])].filter((other) => other !== id);
  }

  /** The chain before `id` ({@linkcode prerequisiteChain} over {@linkcode before}). */
  chain(id: number, limit = MAX_CHAIN): { readonly ids: readonly number[]; readonly more: number } {
    return prerequisiteChain(id, (at) => this.before(at), limit);
  }

  /** The name of `id` in `lang` (English when that language's names are not held). */
  nameOf(id: number, lang: Lang = "en"): string | undefined {
    return this.#names.nameOf(id, lang) ?? this.#names.nameOf(id, "en");
  }

  /** The best `limit` name matches for `query` in every language held (`prefer` first). */
  search(query: string, limit: number, prefer?: Lang): NameMatch[] {
    return this.#names.search(query, limit, prefer);
  }
}
