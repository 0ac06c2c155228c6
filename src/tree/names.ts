/**
 * A tree's (or a ranking's) names in another language: the items through the namer the caller
 * gives (the name index first, then `/v2/items?lang=`: `src/search/localize.ts`), the
 * currencies through `/v2/currencies?lang=`. English stays where no localized name exists (a
 * currency the list lacks, an item upstream does not know); merchant names are the curated
 * data's, in English only (docs/curated-data.md).
 *
 * @module
 */

import type { Gw2Client, Lang } from "../gw2/types.ts";

/** What a tree or a ranking names things with, when it is asked for another language. */
export interface Naming {
  readonly lang: Lang;
  /**
   * Names item ids in `lang` (an id without a name left out); without it, `gw2.itemNames`.
   */
  readonly itemNames?:
    | ((ids: readonly number[]) => Promise<ReadonlyMap<number, string>>)
    | undefined;
}

/** The names of `ids` in `naming.lang` (English ones where none is known). */
export async function itemNamesFor(
  gw2: Pick<Gw2Client, "itemNames">,
  naming: Naming,
  ids: readonly number[],
  english: ReadonlyMap<number, string>,
): Promise<ReadonlyMap<number, string>> {
  if (naming.lang === "en" || ids.length === 0) return english;
  const localized = naming.itemNames === undefined
    ? new Map((await gw2.itemNames(ids, naming.lang)).found.map((item) => [item.id, item.name]))
    : await naming.itemNames(ids);
  return new Map([...english, ...localized]);
}

/**
 * The names of the currencies `ids` in `naming.lang`: one cached `/v2/currencies` read in that
 * language (names only), English where it has none.
 */
export async function currencyNamesFor(
  gw2: Pick<Gw2Client, "currencies">,
  naming: Naming,
  ids: Iterable<number>,
  english: ReadonlyMap<number, string>,
): Promise<ReadonlyMap<number, string>> {
  const wanted = new Set(ids);
  if (naming.lang === "en" || wanted.size === 0) return english;
  const read = await gw2.currencies(naming.lang);
  const names = new Map(english);
  for (const currency of read.value) {
    if (wanted.has(currency.id) && currency.name !== "") names.set(currency.id, currency.name);
  }
  return names;
}

/** `names` (an id -> name record) with each name in `localized` where it has one. */
export function renamed(
  names: Readonly<Record<string, string>>,
  localized: ReadonlyMap<number, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, name] of Object.entries(names)) out[id] = localized.get(Number(id)) ?? name;
  return out;
}
