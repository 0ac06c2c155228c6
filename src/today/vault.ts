/**
 * `priory_wizards_vault`'s answer (pure): the season's listings with the account's purchases and
 * limits, each reward that trades valued at what selling it yields now (`count × floor(buy ×
 * 0.85)`, the contract's fee rule), best value per Astral Acclaim first; rewards that do not
 * trade follow, in the Vault's order, with `value: null`.
 *
 * Two upstream quirks (arenanet/gw2-api): `purchased` is 0 for every `Normal` listing since
 * 2024-05-21 whatever was bought (#84), so a `Normal` listing's 0 is reported unknown (`null`)
 * and cannot make it unaffordable - a non-zero count is a real one and is trusted; and the public
 * listings carry no purchase limit (#120), so without the account's listings `purchased` and
 * `limit` are both unknown.
 *
 * @module
 */

import type { Unread } from "../account/unread.ts";
import type { AccountVaultListing, VaultSeason } from "../gw2/schemas_today.ts";
import { netSellUnit } from "../market/trading_post.ts";

/** One listing of the answer. (An object type, to fit the loose output schema.) */
export type VaultRow = {
  /** The listing's id. */
  readonly id: number;
  readonly itemId: number;
  readonly name: string;
  /** Items one purchase gives. */
  readonly count: number;
  /** Astral Acclaim a purchase costs. */
  readonly cost: number;
  /** `Featured`, `Normal` or `Legacy`. */
  readonly type: string;
  /** Purchases this season; `null` when unknown (see the module's notes). */
  readonly purchased: number | null;
  /** The purchase limit; `null` when unlimited or unknown. */
  readonly limit: number | null;
  /** Copper selling the purchase's items yields now; `null` when the item does not trade. */
  readonly value: number | null;
  /** `value / cost`, copper per Acclaim (not rounded); `null` with `value`. */
  readonly perAcclaim: number | null;
  /** `cost <= acclaim` and the limit not reached; `null` when the balance is unknown. */
  readonly affordable: boolean | null;
};

/** `priory_wizards_vault`'s structured result. */
export type VaultResult = {
  /** Astral Acclaim held; absent when the wallet could not be read (see `unread`). */
  readonly acclaim?: number;
  readonly season: { readonly title: string; readonly end: string };
  readonly listings: VaultRow[];
  /** Listings cut by `limit`. */
  readonly more?: number;
  readonly unread?: Unread[];
};

/** What the answer is built from. */
export interface VaultInput {
  readonly season: VaultSeason;
  /**
   * The listings: the account's (with purchases and limits), or the public ones when the
   * account's could not be read (then `purchasesKnown` is false).
   */
  readonly listings: readonly AccountVaultListing[];
  readonly purchasesKnown: boolean;
  /** The best buy order (copper) of each item that trades; an item absent does not trade. */
  readonly buys: ReadonlyMap<number, number>;
  /** Item names in the language asked. */
  readonly names: ReadonlyMap<number, string>;
  readonly acclaim: number | undefined;
  readonly limit: number;
  readonly unread: readonly Unread[];
}

/** The answer: every listing valued, ordered, cut to `limit`. */
export function shapeVault(input: VaultInput): VaultResult {
  const rows = input.listings.map((listing) => vaultRow(listing, input));
  const traded = rows.filter((row) => row.perAcclaim !== null)
    .sort((a, b) =>
      (b.perAcclaim ?? 0) - (a.perAcclaim ?? 0) || (b.value ?? 0) - (a.value ?? 0) || a.id - b.id
    );
  const untraded = rows.filter((row) => row.perAcclaim === null);
  const ordered = [...traded, ...untraded];
  return {
    ...(input.acclaim === undefined ? {} : { acclaim: input.acclaim }),
    season: { title: input.season.title, end: input.season.end },
    listings: ordered.slice(0, input.limit),
    ...(ordered.length > input.limit ? { more: ordered.length - input.limit } : {}),
    ...(input.unread.length > 0 ? { unread: [...input.unread] } : {}),
  };
}

function vaultRow(listing: AccountVaultListing, input: VaultInput): VaultRow {
  const purchased = purchasedOf(listing, input.purchasesKnown);
  const limit = input.purchasesKnown ? listing.purchase_limit ?? null : null;
  const buy = input.buys.get(listing.item_id);
  const value = buy === undefined ? null : listing.item_count * netSellUnit(buy);
  // The contract's figure as it is (value / cost), unrounded: callers compare it to the quotient.
  const perAcclaim = value === null ? null : value / Math.max(listing.cost, 1);
  const reached = limit !== null && purchased !== null && purchased >= limit;
  return {
    id: listing.id,
    itemId: listing.item_id,
    name: input.names.get(listing.item_id) ?? `Item ${listing.item_id}`,
    count: listing.item_count,
    cost: listing.cost,
    type: listing.type,
    purchased,
    limit,
    value,
    perAcclaim,
    affordable: input.acclaim === undefined ? null : listing.cost <= input.acclaim && !reached,
  };
}

/** The purchases to report: unknown without the account's listings, or a `Normal` listing's 0. */
function purchasedOf(listing: AccountVaultListing, known: boolean): number | null {
  if (!known || listing.purchased === undefined) return null;
  if (listing.type === "Normal" && listing.purchased === 0) return null;
  return listing.purchased;
}
