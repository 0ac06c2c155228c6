/**
 * The Wizard's Vault of the fake world: one season with its listings (rewards that trade and
 * rewards that do not, `Featured`, `Normal` and `Legacy`) and objectives (daily, weekly, special),
 * and each fake account's purchases and progress, in the real shapes (`/v2/wizardsvault`,
 * `/listings`, `/objectives`; `/v2/account/wizardsvault/daily`, `/weekly`, `/special`,
 * `/listings`). Titles are written for the fake; the rewards are real items of the world.
 *
 * The main account (640 Astral Acclaim) shows every case the tools read: a purchase limit reached
 * on a cheap tradeable reward, a `Normal` listing whose `purchased` is 0 though bought (the API's
 * quirk since 2024, arenanet/gw2-api #84) beside one with a real count, rewards costing more than
 * the balance, unlimited rewards (no `purchased`, no `purchase_limit`).
 *
 * @module
 */

import { WELL_KNOWN } from "./well_known.ts";

/** `/v2/wizardsvault`'s season, without its id lists (built from the records below). */
export const VAULT_SEASON = {
  title: "Season of the Quiet Priory",
  start: "2026-10-27T17:00:00Z",
  end: "2027-02-02T17:00:00Z",
} as const;

/** A public listing, `/v2/wizardsvault/listings`. */
export interface VaultListingRecord {
  readonly id: number;
  readonly item_id: number;
  readonly item_count: number;
  readonly type: "Featured" | "Normal" | "Legacy";
  readonly cost: number;
}

/** An objective, `/v2/wizardsvault/objectives`. */
export interface VaultObjectiveRecord {
  readonly id: number;
  readonly title: string;
  readonly track: "PvE" | "PvP" | "WvW";
  readonly acclaim: number;
}

/** An objective with the account's progress. */
export interface AccountObjectiveRecord extends VaultObjectiveRecord {
  readonly progress_current: number;
  readonly progress_complete: number;
  readonly claimed: boolean;
}

/** `/v2/account/wizardsvault/daily` or `/weekly`. */
export interface AccountVaultPeriodRecord {
  readonly meta_progress_current: number;
  readonly meta_progress_complete: number;
  readonly meta_reward_item_id: number;
  readonly meta_reward_astral: number;
  readonly meta_reward_claimed: boolean;
  readonly objectives: readonly AccountObjectiveRecord[];
}

/** An account listing: the public one with the purchases and limit (absent when unlimited). */
export interface AccountVaultListingRecord extends VaultListingRecord {
  readonly purchased?: number;
  readonly purchase_limit?: number;
}

/** An account's Vault. */
export interface AccountVault {
  readonly daily: AccountVaultPeriodRecord;
  readonly weekly: AccountVaultPeriodRecord;
  readonly special: { readonly objectives: readonly AccountObjectiveRecord[] };
  readonly listings: readonly AccountVaultListingRecord[];
}

/** Listing ids the tests name. */
export const VAULT_LISTING = {
  /** Glob of Ectoplasm x10, Normal, limit 50: bought, but `purchased` reads 0 (#84). */
  ectoplasm: 10,
  /** Mystic Coin x2, Featured, 40 Acclaim, limit 2 reached: affordable by cost, not by limit. */
  mysticCoin: 11,
  /** Vial of Powerful Blood x5, Normal, limit 25, 3 bought (a real count). */
  blood: 12,
  /** Pile of Crystalline Dust x5, Normal, unlimited. */
  dust: 13,
  /** Powerful Venom Sac x3, Normal, limit 25, never bought. */
  venom: 14,
  /** Thermocatalytic Reagent x20, Normal, unlimited. */
  reagent: 15,
  /** Dawn, Legacy, 1,300 Acclaim: more than the main account holds. */
  dawn: 16,
  /** Mithril Ingot x25, Normal, unlimited. */
  mithril: 17,
  /** Mystic Clover, Featured, limit 10, 4 bought: does not trade. */
  clover: 1,
  /** Obsidian Shard x5, Normal, limit 20: does not trade. */
  obsidian: 2,
  /** Eldritch Scroll, Legacy, 1,000 Acclaim, limit 1: does not trade. */
  scroll: 3,
  /** Philosopher's Stone x10, Normal, unlimited: does not trade. */
  philosophersStone: 4,
} as const;

/** `[id, item, count, type, cost, purchase limit (0: unlimited)]`. */
type ListingRow = readonly [number, number, number, VaultListingRecord["type"], number, number];

const LISTING_ROWS: readonly ListingRow[] = [
  [VAULT_LISTING.clover, WELL_KNOWN.mysticClover, 1, "Featured", 60, 10],
  [VAULT_LISTING.obsidian, WELL_KNOWN.obsidianShard, 5, "Normal", 25, 20],
  [VAULT_LISTING.scroll, WELL_KNOWN.eldritchScroll, 1, "Legacy", 1_000, 1],
  [VAULT_LISTING.philosophersStone, WELL_KNOWN.philosophersStone, 10, "Normal", 5, 0],
  [VAULT_LISTING.ectoplasm, WELL_KNOWN.globOfEctoplasm, 10, "Normal", 30, 50],
  [VAULT_LISTING.mysticCoin, WELL_KNOWN.mysticCoin, 2, "Featured", 40, 2],
  [VAULT_LISTING.blood, WELL_KNOWN.vialOfPowerfulBlood, 5, "Normal", 20, 25],
  [VAULT_LISTING.dust, WELL_KNOWN.pileOfCrystallineDust, 5, "Normal", 25, 0],
  [VAULT_LISTING.venom, WELL_KNOWN.powerfulVenomSac, 3, "Normal", 15, 25],
  [VAULT_LISTING.reagent, WELL_KNOWN.thermocatalyticReagent, 20, "Normal", 10, 0],
  [VAULT_LISTING.dawn, WELL_KNOWN.dawn, 1, "Legacy", 1_300, 1],
  [VAULT_LISTING.mithril, WELL_KNOWN.mithrilIngot, 25, "Normal", 50, 0],
];

/** `/v2/wizardsvault/listings`, ascending id. */
export const VAULT_LISTINGS: readonly VaultListingRecord[] = LISTING_ROWS
  .map(([id, item_id, item_count, type, cost]) => ({ id, item_id, item_count, type, cost }))
  .sort((a, b) => a.id - b.id);

const LIMITS = new Map(LISTING_ROWS.map((row) => [row[0], row[5]]));

/** `/v2/wizardsvault/objectives`: daily 1-4, weekly 11-17, special 21-28. */
export const VAULT_OBJECTIVES: readonly VaultObjectiveRecord[] = [
  { id: 1, title: "Complete Events in Any Map", track: "PvE", acclaim: 10 },
  { id: 2, title: "Gather Resources", track: "PvE", acclaim: 10 },
  { id: 3, title: "Win a PvP Match", track: "PvP", acclaim: 10 },
  { id: 4, title: "Capture a Sentry Point", track: "WvW", acclaim: 10 },
  { id: 11, title: "Defeat World Bosses", track: "PvE", acclaim: 50 },
  { id: 12, title: "Complete a Fractal", track: "PvE", acclaim: 50 },
  { id: 13, title: "Use the Mystic Forge", track: "PvE", acclaim: 50 },
  { id: 14, title: "Complete Bounties", track: "PvE", acclaim: 50 },
  { id: 15, title: "Win Ranked PvP Matches", track: "PvP", acclaim: 50 },
  { id: 16, title: "Defeat Players in WvW", track: "WvW", acclaim: 50 },
  { id: 17, title: "Open Hero's Choice Chests", track: "PvE", acclaim: 50 },
  { id: 21, title: "Complete a Strike Mission", track: "PvE", acclaim: 150 },
  { id: 22, title: "Earn Achievement Points", track: "PvE", acclaim: 150 },
  { id: 23, title: "Reach Fractal Scale 50", track: "PvE", acclaim: 150 },
  { id: 24, title: "Complete a Legendary Collection Step", track: "PvE", acclaim: 150 },
  { id: 25, title: "Win a PvP Tournament", track: "PvP", acclaim: 150 },
  { id: 26, title: "Reach WvW Rank Milestones", track: "WvW", acclaim: 150 },
  { id: 27, title: "Defeat a Raid Boss", track: "PvE", acclaim: 150 },
  { id: 28, title: "Explore a Whole Map", track: "PvE", acclaim: 150 },
];

const OBJECTIVES = new Map(VAULT_OBJECTIVES.map((objective) => [objective.id, objective]));

/** `[objective id, progress, of, claimed]`. */
type ProgressRow = readonly [number, number, number, boolean];

function objectives(rows: readonly ProgressRow[]): AccountObjectiveRecord[] {
  return rows.map(([id, progress_current, progress_complete, claimed]) => {
    const objective = OBJECTIVES.get(id);
    if (objective === undefined) throw new Error(`no Vault objective ${id}`);
    return { ...objective, progress_current, progress_complete, claimed };
  });
}

function period(
  meta: readonly [current: number, complete: number, astral: number, claimed: boolean],
  rows: readonly ProgressRow[],
): AccountVaultPeriodRecord {
  return {
    meta_progress_current: meta[0],
    meta_progress_complete: meta[1],
    meta_reward_item_id: WELL_KNOWN.mysticCoin,
    meta_reward_astral: meta[2],
    meta_reward_claimed: meta[3],
    objectives: objectives(rows),
  };
}

/** The account listings: every listing, with `purchased` per id where bought (0 otherwise). */
function accountListings(
  purchases: ReadonlyMap<number, number>,
): AccountVaultListingRecord[] {
  return VAULT_LISTINGS.map((listing) => {
    const limit = LIMITS.get(listing.id) ?? 0;
    if (limit === 0) return listing;
    // The quirk (#84): a Normal listing reads 0 whatever was bought, unless planted otherwise.
    const bought = purchases.get(listing.id) ?? 0;
    return { ...listing, purchased: bought, purchase_limit: limit };
  });
}

/** The main account's Vault: two of four dailies, three of six weeklies, four of eight specials. */
export const MAIN_VAULT: AccountVault = {
  daily: period([2, 4, 30, false], [
    [1, 5, 5, true],
    [2, 20, 20, false],
    [3, 0, 1, false],
    [4, 0, 1, false],
  ]),
  weekly: period([3, 6, 290, false], [
    [11, 3, 3, true],
    [12, 1, 1, true],
    [13, 5, 5, false],
    [14, 1, 5, false],
    [15, 0, 3, false],
    [16, 20, 50, false],
    [17, 2, 4, false],
  ]),
  special: {
    objectives: objectives([
      [21, 1, 1, true],
      [22, 500, 500, true],
      [23, 1, 1, true],
      [24, 1, 1, false],
      [25, 0, 1, false],
      [26, 3, 5, false],
      [27, 0, 1, false],
      [28, 40, 100, false],
    ]),
  },
  // The Ectoplasm's 0 though bought is the quirk; the clover's 4 and the blood's 3 are real.
  listings: accountListings(
    new Map([[VAULT_LISTING.mysticCoin, 2], [VAULT_LISTING.clover, 4], [VAULT_LISTING.blood, 3]]),
  ),
};

/** The veteran's Vault: every daily and weekly done and claimed, six of eight specials. */
export const VETERAN_VAULT: AccountVault = {
  daily: period([4, 4, 30, true], [
    [1, 5, 5, true],
    [2, 20, 20, true],
    [3, 1, 1, true],
    [4, 1, 1, true],
  ]),
  weekly: period([6, 6, 290, true], [
    [11, 3, 3, true],
    [12, 1, 1, true],
    [13, 5, 5, true],
    [14, 5, 5, true],
    [15, 3, 3, true],
    [16, 50, 50, true],
    [17, 2, 4, false],
  ]),
  special: {
    objectives: objectives([
      [21, 1, 1, true],
      [22, 500, 500, true],
      [23, 1, 1, true],
      [24, 1, 1, true],
      [25, 1, 1, true],
      [26, 5, 5, true],
      [27, 0, 1, false],
      [28, 70, 100, false],
    ]),
  },
  listings: accountListings(new Map([[VAULT_LISTING.dawn, 1], [VAULT_LISTING.scroll, 1]])),
};
