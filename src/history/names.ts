/**
 * The one place the history's results get item names from. In another language, from the namer
 * the tool gives (the name index, then `/v2/items?lang=`: `src/search/localize.ts`); English for
 * the rest, from the GW2 client's item reads (cached, warm for the legendaries' trees); when
 * upstream fails, from the name index, so a history read from KV still answers while GW2 is down
 * (in English where the index lacks the language's names). An id none knows is left out (the
 * tool says `Item <id>`).
 *
 * @module
 */

import type { Gw2Client } from "../gw2/types.ts";

/** A name lookup by id, as the name index offers one (`NameIndex.lookup`). */
export type NameLookup = (id: number) => Promise<string | undefined>;

/** Names ids in one language (those it knows), as `itemNamer` does. */
export type LocalNamer = (ids: readonly number[]) => Promise<ReadonlyMap<number, string>>;

/** The names of `ids` (those known): `inLanguage`'s first, then English. */
export async function itemNames(
  gw2: Pick<Gw2Client, "items">,
  ids: readonly number[],
  fallback?: NameLookup,
  inLanguage?: LocalNamer,
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  // A failed read in the language leaves English names, which have their own fallback.
  const localized = inLanguage === undefined
    ? new Map<number, string>()
    : await inLanguage(ids).catch(() => new Map<number, string>());
  const english = await englishNames(gw2, ids.filter((id) => !localized.has(id)), fallback);
  return new Map([...english, ...localized]);
}

async function englishNames(
  gw2: Pick<Gw2Client, "items">,
  ids: readonly number[],
  fallback?: NameLookup,
): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  if (ids.length === 0) return names;
  try {
    for (const item of (await gw2.items(ids)).found) names.set(item.id, item.name);
    return names;
  } catch (error) {
    if (fallback === undefined) throw error;
  }
  for (const id of ids) {
    const name = await fallback(id).catch(() => undefined);
    if (name !== undefined) names.set(id, name);
  }
  return names;
}
