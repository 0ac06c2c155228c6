/**
 * Completions for prompt arguments (`completion/complete`): legendary names from the curated
 * list, item names from the item-name index. Both rank as `priory_item_search` does (exact,
 * then prefix, then every word, then typos; `src/search/name_table.ts`).
 *
 * @module
 */

import { LEGENDARIES } from "../data/legendaries.ts";
import type { NameIndex } from "../search/name_index.ts";
import { NameTable } from "../search/name_table.ts";

/** Most values one completion returns (the protocol allows 100). */
export const MAX_COMPLETIONS = 20;

let legendaryTable: NameTable | undefined;

/** The legendary list as a name table, built on first use. */
function legendaries(): NameTable {
  if (legendaryTable === undefined) {
    legendaryTable = new NameTable();
    legendaryTable.upsert(
      LEGENDARIES.map(({ id, name, type }) => ({ id, name, rarity: "Legendary", type })),
    );
  }
  return legendaryTable;
}

/** Distinct names in order (legendary armour repeats some names across weights). */
function distinct(names: readonly string[]): string[] {
  return [...new Set(names)].slice(0, MAX_COMPLETIONS);
}

const LEGENDARY_IDS: ReadonlySet<number> = new Set(LEGENDARIES.map(({ id }) => id));

/**
 * Legendary names matching what was typed so far; with nothing typed, the first legendaries of
 * the list (generation 1 weapons first). The curated English names first; then, from the name
 * index when one is given, legendaries whose name in another language matches ("Düsternis"),
 * under that name.
 *
 * @example
 * ```ts
 * await completeLegendary("sunr"); // ["Sunrise"]
 * await completeLegendary("düst", names); // ["Düsternis"]
 * ```
 */
export async function completeLegendary(typed: string, names?: NameIndex): Promise<string[]> {
  if (typed.trim() === "") return distinct(LEGENDARIES.map((legendary) => legendary.name));
  const english = legendaries().search(typed, MAX_COMPLETIONS * 2).map((entry) => entry.name);
  if (names === undefined || english.length >= MAX_COMPLETIONS) return distinct(english);
  try {
    // Most matches of a short prefix are not legendaries: ask for plenty.
    const { matches } = await names.search(typed, 100);
    const localized = matches.filter((match) => LEGENDARY_IDS.has(match.id) && match.lang !== "en");
    return distinct([...english, ...localized.map((match) => match.name)]);
  } catch {
    return distinct(english);
  }
}

/**
 * Item names matching what was typed so far, from the item-name index; none when nothing is
 * typed, without an index, or when the index cannot be read (a completion never fails).
 *
 * @example
 * ```ts
 * await completeItem(names, "glob of ec"); // ["Glob of Ectoplasm", ...]
 * ```
 */
export async function completeItem(names: NameIndex | undefined, typed: string): Promise<string[]> {
  if (names === undefined || typed.trim() === "") return [];
  try {
    const { matches } = await names.search(typed, MAX_COMPLETIONS * 2);
    return distinct(matches.map((entry) => entry.name));
  } catch {
    return [];
  }
}
