/**
 * Names of item ids in a language, for every tool that names things: from the name index first
 * (in memory: the crawl and the warm-up keep it filled in all five languages), then, for the ids
 * it lacks, from the GW2 client (`/v2/items?lang=`, cached as name records and written through to
 * the index). One function, so a tool takes `lang` in one line.
 *
 * @module
 */

import type { Gw2Client, Lang } from "../gw2/types.ts";
import type { NameIndex } from "./name_index.ts";

/** Names ids: what a tree or a ranking is given to name its items in a language. */
export type ItemNamer = (ids: readonly number[]) => Promise<ReadonlyMap<number, string>>;

/**
 * The names of `ids` in `lang`: the index's, then the client's for the rest; an id upstream
 * does not know has none. When the index cannot be read, every name comes from the client.
 *
 * @example
 * ```ts
 * const names = await itemNamesIn(deps.gw2, deps.names, [30704], "de"); // 30704 -> "Düsternis"
 * ```
 * @throws a `Gw2Failure` when the client's read fails (see `src/gw2/errors.ts`)
 */
export async function itemNamesIn(
  gw2: Pick<Gw2Client, "itemNames">,
  index: Pick<NameIndex, "namesOf"> | undefined,
  ids: Iterable<number>,
  lang: Lang,
): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  const names = index === undefined
    ? new Map<number, string>()
    : await index.namesOf(wanted, lang).catch(() => new Map<number, string>());
  const missing = wanted.filter((id) => !names.has(id));
  if (missing.length > 0) {
    const read = await gw2.itemNames(missing, lang);
    for (const item of read.found) names.set(item.id, item.name);
  }
  return names;
}

/** {@linkcode itemNamesIn} bound to a client, an index and a language. */
export function itemNamer(
  gw2: Pick<Gw2Client, "itemNames">,
  index: Pick<NameIndex, "namesOf"> | undefined,
  lang: Lang,
): ItemNamer {
  return (ids) => itemNamesIn(gw2, index, ids, lang);
}

/**
 * What a tool asked for `lang` names with: the language and its {@linkcode itemNamer}, or
 * `undefined` for English (or no `lang`), where the records' own names are already English.
 *
 * @example
 * ```ts
 * const naming = namingIn(deps.gw2, deps.names, lang); // undefined when lang is en or absent
 * ```
 */
export function namingIn(
  gw2: Pick<Gw2Client, "itemNames">,
  index: Pick<NameIndex, "namesOf"> | undefined,
  lang: Lang | undefined,
): { readonly lang: Lang; readonly itemNames: ItemNamer } | undefined {
  return lang === undefined || lang === "en"
    ? undefined
    : { lang, itemNames: itemNamer(gw2, index, lang) };
}
