/**
 * Zod schemas of the reset and Wizard's Vault records (`priory_today`, `priory_wizards_vault`):
 * the public catalogues (daily crafting, world bosses, map chests, raids, dungeons, the Vault's
 * season, listings and objectives) and the account's progress against them. Like `schemas.ts`,
 * `z.object` strips unknown keys and enum-like fields stay strings (ArenaNet adds values without
 * a schema bump). Shapes: `docs/upstream.md` and the GW2 wiki's `API:2/...` pages.
 *
 * @module
 */

import { z } from "zod";

const Id = z.number().int().positive();
const Count = z.number().int().nonnegative();

/**
 * A list of string ids: `/v2/dailycrafting`, `/v2/worldbosses`, `/v2/mapchests` (the catalogues,
 * bare) and the account's completions since the last reset (`/v2/account/dailycrafting`,
 * `/worldbosses`, `/mapchests`, `/dungeons` (path ids), `/raids` (event ids)).
 */
export const StringIdsSchema = z.array(z.string());
/** A validated id list. */
export type StringIds = z.infer<typeof StringIdsSchema>;

/** One raid encounter or checkpoint (`type`: `Boss` or `Checkpoint`). */
const RaidEventSchema = z.object({ id: z.string(), type: z.string() });

/** `/v2/raids` record: a raid's wings and their events, in play order. */
export const RaidSchema = z.object({
  id: z.string(),
  wings: z.array(z.object({ id: z.string(), events: z.array(RaidEventSchema) })),
});
/** A validated raid. */
export type Raid = z.infer<typeof RaidSchema>;

/** `/v2/dungeons` record: a dungeon's paths (`type`: `Story` or `Explorable`). */
export const DungeonSchema = z.object({
  id: z.string(),
  paths: z.array(z.object({ id: z.string(), type: z.string() })),
});
/** A validated dungeon. */
export type Dungeon = z.infer<typeof DungeonSchema>;

/** `/v2/wizardsvault`: the current season (times ISO 8601) and its listing and objective ids. */
export const VaultSeasonSchema = z.object({
  title: z.string(),
  start: z.string(),
  end: z.string(),
  listings: z.array(Id),
  objectives: z.array(Id),
});
/** A validated season. */
export type VaultSeason = z.infer<typeof VaultSeasonSchema>;

/**
 * `/v2/wizardsvault/listings` record (`type`: `Featured`, `Normal` or `Legacy`; `cost` in Astral
 * Acclaim). The public records carry no purchase limit (arenanet/gw2-api #120).
 */
export const VaultListingSchema = z.object({
  id: Id,
  item_id: Id,
  item_count: z.number().int().positive(),
  type: z.string(),
  cost: Count,
});
/** A validated Vault listing. */
export type VaultListing = z.infer<typeof VaultListingSchema>;

/**
 * `/v2/account/wizardsvault/listings` record: the listing with the account's purchases and the
 * limit, both absent for an unlimited reward. `purchased` is 0 for every `Normal` listing since
 * 2024-05-21 whatever was bought (arenanet/gw2-api #84).
 */
export const AccountVaultListingSchema = VaultListingSchema.extend({
  purchased: Count.optional(),
  purchase_limit: Count.optional(),
});
/** A validated account Vault listing. */
export type AccountVaultListing = z.infer<typeof AccountVaultListingSchema>;

/** `/v2/wizardsvault/objectives` record (`track`: `PvE`, `PvP` or `WvW`). */
export const VaultObjectiveSchema = z.object({
  id: Id,
  title: z.string(),
  track: z.string(),
  acclaim: Count,
});
/** A validated Vault objective. */
export type VaultObjective = z.infer<typeof VaultObjectiveSchema>;

/** One objective of the account's daily, weekly or special track, with its progress. */
export const AccountObjectiveSchema = VaultObjectiveSchema.extend({
  progress_current: Count,
  progress_complete: Count,
  claimed: z.boolean(),
});
/** A validated account objective. */
export type AccountObjective = z.infer<typeof AccountObjectiveSchema>;

/**
 * `/v2/account/wizardsvault/daily` and `/weekly`: the meta reward's progress (objectives done
 * towards it) and each objective's. `meta_reward_claimed` is a boolean (gw2api-ts types it as a
 * number, wrongly).
 */
export const AccountVaultPeriodSchema = z.object({
  meta_progress_current: Count,
  meta_progress_complete: Count,
  meta_reward_item_id: Id.optional(),
  meta_reward_astral: Count.optional(),
  meta_reward_claimed: z.boolean(),
  objectives: z.array(AccountObjectiveSchema),
});
/** A validated daily or weekly Vault track. */
export type AccountVaultPeriod = z.infer<typeof AccountVaultPeriodSchema>;

/** `/v2/account/wizardsvault/special`: the season's special objectives (no meta reward). */
export const AccountVaultSpecialSchema = z.object({ objectives: z.array(AccountObjectiveSchema) });
/** A validated special track. */
export type AccountVaultSpecial = z.infer<typeof AccountVaultSpecialSchema>;
