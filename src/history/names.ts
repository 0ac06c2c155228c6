/**
 * The one place the history's results get item names from, so a language can be threaded
 * through here later. Names come from the GW2 client's item reads (cached, warm for the
 * legendaries' trees); when upstream fails, from the name index, so a history read from KV still
 * answers while GW2 is down. An id neither knows is left out (the tool says `Item <id>`).
 *
 * @module
 */

import type { Gw2Client } from "../gw2/types.ts";

/** A name lookup by id, as the name index offers one (`NameIndex.lookup`). */
export type NameLookup = (id: number) => Promise<string | undefined>;

/** The names of `ids` (those known). */
export async function itemNames(
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
