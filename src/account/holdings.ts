/**
 * The holdings reader: everything a player holds - material storage, bank, shared inventory
 * slots, every character's bags and what every character wears - read with bounded concurrency
 * and tallied. The scopes are checked first (one cached `/v2/tokeninfo`), so a key lacking
 * several names them all before any other request; then the four sources are read at once, all
 * bags and equipment in one `/v2/characters?ids=all` request. A cold read is two upstream round
 * trips whatever the character count (the seeds read one inventory per character, one after
 * another: 22 requests, 31 s on 19 characters). Every read is cached five minutes in KV under the
 * key's HMAC, so a repeat on any instance is served from KV.
 *
 * @module
 */

import { mapWithConcurrency, settleAll } from "../async/concurrency.ts";
import { type Holdings, type HoldingSources, tallyHoldings } from "./tally.ts";
import type { CharacterBags } from "../gw2/schemas.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { requireScopes } from "./scopes.ts";

/** The scopes reading holdings needs. */
export const HOLDINGS_SCOPES: readonly string[] = ["account", "inventories", "characters"];

/** Character inventories read at once when the bulk character read lacks bags. */
export const CHARACTER_READ_CONCURRENCY = 4;

/**
 * Reads the holdings while `work` runs (a recipe-tree resolution, say), after the scope check,
 * so a key lacking scopes is refused, naming them all, before `work` spends any request. Both
 * settle before a failure of either is thrown.
 *
 * @example
 * ```ts
 * const { holdings, value: resolved } = await withHoldings(gw2, key, () => resolveRecipes(gw2, ids));
 * ```
 * @throws {Gw2ScopeMissingError} naming every one of {@linkcode HOLDINGS_SCOPES} the key lacks
 * @throws a `Gw2Failure` from either read, or whatever `work` throws
 */
export async function withHoldings<T>(
  gw2: Gw2Client,
  key: string,
  work: () => Promise<T>,
): Promise<{ readonly holdings: Holdings; readonly value: T }> {
  await requireScopes(gw2, key, HOLDINGS_SCOPES);
  const [holdings, value] = await settleAll([readChecked(gw2, key), work()]);
  return { holdings, value };
}

/** The four sources, read at once and tallied, once the scopes have been checked. */
async function readChecked(gw2: Gw2Client, key: string): Promise<Holdings> {
  const [materialStorage, bank, sharedInventory, characters] = await settleAll([
    gw2.doc("accountMaterials", { key }),
    gw2.doc("accountBank", { key }),
    gw2.doc("accountInventory", { key }),
    gw2.doc("characterBags", { key }),
  ]);
  return tallyHoldings({
    materialStorage: materialStorage.value,
    bank: bank.value,
    sharedInventory: sharedInventory.value,
    characters: await withBags(gw2, key, characters.value),
  });
}

/**
 * Every character with its bags and equipment. Upstream includes both in the bulk read when the
 * key has the `inventories` scope (checked above); a character answered without bags has them
 * read on its own.
 */
async function withBags(
  gw2: Gw2Client,
  key: string,
  characters: readonly CharacterBags[],
): Promise<HoldingSources["characters"][number][]> {
  return await mapWithConcurrency(characters, CHARACTER_READ_CONCURRENCY, async (character) => ({
    name: character.name,
    bags: character.bags ??
      (await gw2.doc("characterInventory", { key, name: character.name })).value.bags,
    ...(character.equipment === undefined ? {} : { equipment: character.equipment }),
  }));
}
