/**
 * The fake's achievement endpoints and its endpoint list, kept apart from `routes.ts` (which
 * merges them into its tables): `/v2/achievements`, `/v2/skins` and `/v2/minis` (public,
 * localized, the bulk rules), `/v2/account/achievements` and `/v2/account/mastery/points`
 * (scopes `account`, `progression`), and `/v2.json`.
 *
 * @module
 */

import { API_LIST } from "./api_list.ts";
import { bulkAnswer, type Collection, parseNumericId } from "./bulk.ts";
import { type Answer, ok, TEXT } from "./responses.ts";
import type { Endpoint, RouteContext } from "./routes.ts";
import {
  type AccountAchievements,
  type AchievementRecords,
  localizedAchievements,
} from "./world/achievements.ts";

const PUBLIC_CACHE = "public, max-age=3600";
const PRIVATE_CACHE = "private, max-age=300";

function collection<V>(map: ReadonlyMap<number, V>, linkBase: string, allowAll: boolean) {
  const ids = [...map.keys()];
  const out: Collection<number> = {
    ids,
    record: (id) => map.get(id),
    parse: parseNumericId,
    allowAll,
    noSuchText: TEXT.noSuchId,
    linkBase,
  };
  return out;
}

function localizedBulk(
  name: string,
  pick: (records: AchievementRecords) => ReadonlyMap<number, unknown>,
  allowAll: boolean,
): Endpoint {
  return {
    name,
    scopes: undefined,
    cacheControl: PUBLIC_CACHE,
    localized: true,
    answer: ({ world, params, capture, lang }: RouteContext): Answer =>
      bulkAnswer(
        collection(pick(localizedAchievements(world.achievements, lang)), name, allowAll),
        params,
        capture,
      ),
  };
}

/** The achievement part of the account a key reads (the veteran account for its key). */
function held({ world, key }: RouteContext): AccountAchievements {
  return key?.account === "veteran" ? world.achievements.veteran : world.achievements.main;
}

/**
 * `/v2/account/achievements`: every entry with progress; `?ids=`/`?id=` narrow it with the bulk
 * rules (an achievement without progress is an unknown id).
 */
function accountAchievements(context: RouteContext): Answer {
  const entries = held(context).achievements;
  const { params } = context;
  if (params.get("ids") === null && params.get("id") === null) return ok(entries);
  const map = new Map(entries.map((entry) => [entry.id, entry]));
  return bulkAnswer(collection(map, "/v2/account/achievements", false), params);
}

const ACHIEVEMENTS = localizedBulk("/v2/achievements", (r) => r.achievements, false);
const SKINS = localizedBulk("/v2/skins", (r) => r.skins, false);
const MINIS = localizedBulk("/v2/minis", (r) => r.minis, true);

const ACCOUNT_ACHIEVEMENTS: Endpoint = {
  name: "/v2/account/achievements",
  scopes: ["account", "progression"],
  cacheControl: PRIVATE_CACHE,
  localized: false,
  answer: accountAchievements,
};

const MASTERY_POINTS: Endpoint = {
  name: "/v2/account/mastery/points",
  scopes: ["account", "progression"],
  cacheControl: PRIVATE_CACHE,
  localized: false,
  answer: (context) => ok(held(context).masteryPoints),
};

const API_LIST_ENDPOINT: Endpoint = {
  name: "/v2.json",
  scopes: undefined,
  cacheControl: PUBLIC_CACHE,
  localized: false,
  answer: () => ok(API_LIST),
};

/** Fixed paths (as `routes.ts` keys them: no leading slash). */
export const ACHIEVEMENT_ROUTES: ReadonlyMap<string, Endpoint> = new Map([
  ["v2/achievements", ACHIEVEMENTS],
  ["v2/account/achievements", ACCOUNT_ACHIEVEMENTS],
  ["v2/account/mastery/points", MASTERY_POINTS],
  ["v2/skins", SKINS],
  ["v2/minis", MINIS],
  ["v2.json", API_LIST_ENDPOINT],
]);

/** Those that also take a trailing `/:id`. */
export const ACHIEVEMENT_ROUTES_WITH_ID: ReadonlyMap<string, Endpoint> = new Map([
  ["v2/achievements", ACHIEVEMENTS],
  ["v2/skins", SKINS],
  ["v2/minis", MINIS],
]);
