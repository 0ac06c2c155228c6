/**
 * The fake's reset and Wizard's Vault endpoints (`priory_today`, `priory_wizards_vault`): the
 * public catalogues, bulk-expanded by their string or numeric ids with `ids=all` (`/v2/raids`,
 * `/v2/dungeons`, `/v2/worldbosses`, `/v2/mapchests`, `/v2/dailycrafting`,
 * `/v2/wizardsvault/listings`, `/objectives`) and the season (`/v2/wizardsvault`), and the
 * account's progress (scopes `account` and `progression`, as the real API asks). `routes.ts` adds
 * these tables to its own. The Vault ignores `lang` (arenanet/gw2-api #78): English always.
 *
 * @module
 */

import type { Scope } from "./auth.ts";
import { bulkAnswer, type Collection, parseNumericId } from "./bulk.ts";
import { type Answer, ok, TEXT } from "./responses.ts";
import type { Endpoint, RouteContext } from "./routes.ts";
import {
  DAILY_CRAFTING,
  DUNGEONS,
  MAIN_PROGRESS,
  MAP_CHESTS,
  RAIDS,
  type ResetProgress,
  VETERAN_PROGRESS,
  WORLD_BOSSES,
} from "./world/resets.ts";
import {
  type AccountVault,
  MAIN_VAULT,
  VAULT_LISTINGS,
  VAULT_OBJECTIVES,
  VAULT_SEASON,
  VETERAN_VAULT,
} from "./world/vault.ts";

const PUBLIC: Pick<Endpoint, "scopes" | "cacheControl" | "localized"> = {
  scopes: undefined,
  cacheControl: "public, max-age=3600",
  localized: false,
};
const PROGRESSION: readonly Scope[] = ["account", "progression"];
const PRIVATE: Pick<Endpoint, "scopes" | "cacheControl" | "localized"> = {
  scopes: PROGRESSION,
  cacheControl: "private, max-age=300",
  localized: false,
};

/** A catalogue keyed by string id (`/v2/raids`, `/v2/worldbosses`, ...), `ids=all` allowed. */
function stringCatalogue(
  name: string,
  records: readonly { readonly id: string }[],
): Endpoint {
  const byId = new Map(records.map((record) => [record.id, record]));
  const collection: Collection<string> = {
    ids: records.map((record) => record.id),
    record: (id) => byId.get(id),
    parse: (token) => token,
    allowAll: true,
    noSuchText: TEXT.noSuchId,
    linkBase: name,
  };
  return {
    name,
    ...PUBLIC,
    answer: ({ params, capture }) => bulkAnswer(collection, params, capture),
  };
}

/** A catalogue keyed by numeric id, `ids=all` allowed. */
function numericCatalogue(name: string, records: readonly { readonly id: number }[]): Endpoint {
  const byId = new Map(records.map((record) => [record.id, record]));
  const collection: Collection<number> = {
    ids: records.map((record) => record.id),
    record: (id) => byId.get(id),
    parse: parseNumericId,
    allowAll: true,
    noSuchText: TEXT.noSuchId,
    linkBase: name,
  };
  return {
    name,
    ...PUBLIC,
    answer: ({ params, capture }) => bulkAnswer(collection, params, capture),
  };
}

/** The progress of the account the key reads. */
function progressOf(context: RouteContext): ResetProgress {
  return context.key?.account === "veteran" ? VETERAN_PROGRESS : MAIN_PROGRESS;
}

function vaultOf(context: RouteContext): AccountVault {
  return context.key?.account === "veteran" ? VETERAN_VAULT : MAIN_VAULT;
}

function accountPart(name: string, answer: (context: RouteContext) => unknown): Endpoint {
  return { name, ...PRIVATE, answer: (context): Answer => ok(answer(context)) };
}

const ids = (list: readonly string[]) => list.map((id) => ({ id }));

const RAIDS_ENDPOINT = stringCatalogue("/v2/raids", RAIDS);
const DUNGEONS_ENDPOINT = stringCatalogue("/v2/dungeons", DUNGEONS);
const WORLD_BOSSES_ENDPOINT = stringCatalogue("/v2/worldbosses", ids(WORLD_BOSSES));
const MAP_CHESTS_ENDPOINT = stringCatalogue("/v2/mapchests", ids(MAP_CHESTS));
const DAILY_CRAFTING_ENDPOINT = stringCatalogue("/v2/dailycrafting", ids(DAILY_CRAFTING));
const VAULT_LISTINGS_ENDPOINT = numericCatalogue("/v2/wizardsvault/listings", VAULT_LISTINGS);
const VAULT_OBJECTIVES_ENDPOINT = numericCatalogue(
  "/v2/wizardsvault/objectives",
  VAULT_OBJECTIVES,
);
const VAULT_SEASON_ENDPOINT: Endpoint = {
  name: "/v2/wizardsvault",
  ...PUBLIC,
  answer: () =>
    ok({
      ...VAULT_SEASON,
      listings: VAULT_LISTINGS.map((listing) => listing.id),
      objectives: VAULT_OBJECTIVES.map((objective) => objective.id),
    }),
};

/** The endpoints at a fixed path, by path without the leading slash. */
export const TODAY_FIXED: ReadonlyMap<string, Endpoint> = new Map([
  ["v2/raids", RAIDS_ENDPOINT],
  ["v2/dungeons", DUNGEONS_ENDPOINT],
  ["v2/worldbosses", WORLD_BOSSES_ENDPOINT],
  ["v2/mapchests", MAP_CHESTS_ENDPOINT],
  ["v2/dailycrafting", DAILY_CRAFTING_ENDPOINT],
  ["v2/wizardsvault", VAULT_SEASON_ENDPOINT],
  ["v2/wizardsvault/listings", VAULT_LISTINGS_ENDPOINT],
  ["v2/wizardsvault/objectives", VAULT_OBJECTIVES_ENDPOINT],
  ...(["dailycrafting", "dungeons", "mapchests", "worldbosses", "raids"] as const).map((
    part,
  ) =>
    [`v2/account/${part}`, accountPart(`/v2/account/${part}`, (c) => progressOf(c)[part])] as const
  ),
  ...(["daily", "weekly", "special", "listings"] as const).map((part) =>
    [
      `v2/account/wizardsvault/${part}`,
      accountPart(`/v2/account/wizardsvault/${part}`, (c) => vaultOf(c)[part]),
    ] as const
  ),
]);

/** The catalogues that also take a trailing `/:id`. */
export const TODAY_WITH_ID: ReadonlyMap<string, Endpoint> = new Map([
  ["v2/raids", RAIDS_ENDPOINT],
  ["v2/dungeons", DUNGEONS_ENDPOINT],
  ["v2/worldbosses", WORLD_BOSSES_ENDPOINT],
  ["v2/mapchests", MAP_CHESTS_ENDPOINT],
  ["v2/dailycrafting", DAILY_CRAFTING_ENDPOINT],
  ["v2/wizardsvault/listings", VAULT_LISTINGS_ENDPOINT],
  ["v2/wizardsvault/objectives", VAULT_OBJECTIVES_ENDPOINT],
]);
