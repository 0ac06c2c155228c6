/**
 * `priory_wizards_vault`'s work: the season (cached an hour), the account's listings with its
 * purchases and the wallet's Astral Acclaim at once; without the account's listings (no
 * `progression`), the public ones (cached a day) with purchases unknown. Then the rewards' best
 * buy orders (the market sheet answers while fresh) and names in one read each. A part the key
 * lacks a scope for is named in `unread`; the shaping is `vault.ts`'s.
 *
 * @module
 */

import { readPart, unreadOf, valueOf } from "../account/unread.ts";
import { craftNames } from "../craft/run.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { bestBuys } from "../market/trading_post.ts";
import type { Naming } from "../tree/names.ts";
import { ASTRAL_ACCLAIM } from "./run.ts";
import { shapeVault, type VaultResult } from "./vault.ts";

/** What to answer. */
export interface VaultRequest {
  /** The player's key. */
  readonly key: string;
  /** Listings answered (the rest counted in `more`). */
  readonly limit: number;
  /** The language of the rewards' names (English when absent). */
  readonly naming?: Naming | undefined;
}

/**
 * What the account's Astral Acclaim buys this season, best value first.
 *
 * @throws a `Gw2Failure` (a rejected key, an outage)
 */
export async function runVault(gw2: Gw2Client, request: VaultRequest): Promise<VaultResult> {
  const { key } = request;
  const [season, own, wallet] = await Promise.all([
    gw2.doc("vaultSeason"),
    readPart("purchases", () => gw2.doc("accountVaultListings", { key })),
    readPart("acclaim", () => gw2.doc("accountWallet", { key })),
  ]);
  const mine = valueOf(own)?.value;
  const listings = mine ?? (await gw2.doc("vaultListings")).value;
  const itemIds = [...new Set(listings.map((listing) => listing.item_id))];
  const [prices, names] = await Promise.all([
    gw2.prices(itemIds),
    craftNames(gw2, itemIds, request.naming),
  ]);
  const held = valueOf(wallet)?.value;
  return shapeVault({
    season: season.value,
    listings,
    purchasesKnown: mine !== undefined,
    buys: bestBuys(prices.found),
    names,
    acclaim: held === undefined
      ? undefined
      : held.find((entry) => entry.id === ASTRAL_ACCLAIM)?.value ?? 0,
    limit: request.limit,
    unread: unreadOf([own, wallet]),
  });
}
