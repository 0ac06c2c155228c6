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
import { readPermitted, type Unread, unreadOf, valueOf } from "./unread.ts";

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

/** What {@linkcode readHoldingParts} could read, and what not. */
export interface HoldingParts {
  readonly holdings: Holdings;
  /** The parts the key may not read (`materials`, `bank`, `shared`, `bags`, `equipped`). */
  readonly unread: readonly Unread[];
}

/**
 * The holdings the key can read, part by part (the contract's `unread` rule): a part whose scope
 * the key's `permissions` lack is named in `unread` without a request; the others are read at
 * once and tallied. Bags and what characters wear come from the one bulk character read - bags
 * with `inventories`, equipment with `inventories` or `builds` - so a key without `inventories`
 * never falls back to one 403 per character.
 *
 * @example
 * ```ts
 * const { value: token } = await gw2.doc("tokenInfo", { key });
 * const { holdings, unread } = await readHoldingParts(gw2, key, token.permissions);
 * ```
 * @throws a `Gw2Failure` other than a missing scope (a rejected key, an outage)
 */
export async function readHoldingParts(
  gw2: Gw2Client,
  key: string,
  permissions: readonly string[],
): Promise<HoldingParts> {
  const storage = ["inventories"];
  const [materials, bank, shared, characters] = await settleAll([
    readPermitted(
      "materials",
      permissions,
      storage,
      async () => (await gw2.doc("accountMaterials", { key })).value,
    ),
    readPermitted(
      "bank",
      permissions,
      storage,
      async () => (await gw2.doc("accountBank", { key })).value,
    ),
    readPermitted(
      "shared",
      permissions,
      storage,
      async () => (await gw2.doc("accountInventory", { key })).value,
    ),
    readPermitted(
      "bags",
      permissions,
      ["characters"],
      async () => (await gw2.doc("characterBags", { key })).value,
    ),
  ]);
  const read = valueOf(characters);
  const has = (scope: string) => permissions.includes(scope);
  const bags = read !== undefined && has("inventories");
  const worn = read !== undefined && (has("inventories") || has("builds"));
  const lacking = (part: string, scope: string) => ({ unread: { part, scope } });
  const unread = unreadOf([
    materials,
    bank,
    shared,
    read === undefined ? characters : bags ? { value: read } : lacking("bags", "inventories"),
    read === undefined
      ? lacking("equipped", "characters")
      : worn
      ? { value: read }
      : lacking("equipped", "inventories"),
  ]);
  // Equipment comes as upstream sends it (with inventories or builds); bags only with inventories.
  const people = read === undefined
    ? []
    : bags
    ? await withBags(gw2, key, read)
    : read.map(({ name, equipment }) => ({
      name,
      bags: [],
      ...(equipment === undefined ? {} : { equipment }),
    }));
  return {
    holdings: tallyHoldings({
      materialStorage: valueOf(materials) ?? [],
      bank: valueOf(bank) ?? [],
      sharedInventory: valueOf(shared) ?? [],
      characters: people,
    }),
    unread,
  };
}
