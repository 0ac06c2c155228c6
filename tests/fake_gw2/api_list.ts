/**
 * `/v2.json`: the API's own list of its endpoints, in the real format (`{langs, routes: [{path,
 * lang, auth, active}], schema_versions: [{v, desc}]}`). `:id`-style segments name a path
 * parameter (`/v2/guild/:id`, `/v2/characters/:id/inventory`); `auth` says the endpoint needs a
 * key; `lang` that it is localized; `active: false` an endpoint switched off. The paths are the
 * real API's (a representative subset, every one the fake serves among them); most are listed
 * but not served by the fake, which answers them 404 like any unknown path. The schema versions'
 * descriptions are written for the fake.
 *
 * @module
 */

/** One route of `/v2.json`. */
export interface ApiRoute {
  readonly path: string;
  readonly lang: boolean;
  readonly auth: boolean;
  readonly active: boolean;
}

/** `/v2.json`. */
export interface ApiList {
  readonly langs: readonly string[];
  readonly routes: readonly ApiRoute[];
  readonly schema_versions: readonly { readonly v: string; readonly desc: string }[];
}

/** Path and flags: `a` needs a key, `l` localized, `x` inactive. */
const ROUTES: readonly (readonly [string, string])[] = [
  ["/v2/account", "a"],
  ["/v2/account/achievements", "a"],
  ["/v2/account/bank", "a"],
  ["/v2/account/buildstorage", "a"],
  ["/v2/account/dailycrafting", "a"],
  ["/v2/account/dungeons", "a"],
  ["/v2/account/dyes", "a"],
  ["/v2/account/finishers", "a"],
  ["/v2/account/gliders", "a"],
  ["/v2/account/home/cats", "a"],
  ["/v2/account/home/nodes", "a"],
  ["/v2/account/inventory", "a"],
  ["/v2/account/legendaryarmory", "a"],
  ["/v2/account/luck", "a"],
  ["/v2/account/mailcarriers", "a"],
  ["/v2/account/mapchests", "a"],
  ["/v2/account/masteries", "a"],
  ["/v2/account/mastery/points", "a"],
  ["/v2/account/materials", "a"],
  ["/v2/account/minis", "a"],
  ["/v2/account/mounts/skins", "a"],
  ["/v2/account/mounts/types", "a"],
  ["/v2/account/novelties", "a"],
  ["/v2/account/outfits", "a"],
  ["/v2/account/pvp/heroes", "a"],
  ["/v2/account/raids", "a"],
  ["/v2/account/recipes", "a"],
  ["/v2/account/skins", "a"],
  ["/v2/account/titles", "a"],
  ["/v2/account/wallet", "a"],
  ["/v2/account/wizardsvault/daily", "al"],
  ["/v2/account/wizardsvault/listings", "al"],
  ["/v2/account/wizardsvault/special", "al"],
  ["/v2/account/wizardsvault/weekly", "al"],
  ["/v2/account/worldbosses", "a"],
  ["/v2/achievements", "l"],
  ["/v2/achievements/categories", "l"],
  ["/v2/achievements/daily", "x"],
  ["/v2/achievements/groups", "l"],
  ["/v2/backstory/answers", "l"],
  ["/v2/backstory/questions", "l"],
  ["/v2/build", ""],
  ["/v2/characters", "a"],
  ["/v2/characters/:id", "a"],
  ["/v2/characters/:id/backstory", "a"],
  ["/v2/characters/:id/core", "a"],
  ["/v2/characters/:id/crafting", "a"],
  ["/v2/characters/:id/equipment", "a"],
  ["/v2/characters/:id/inventory", "a"],
  ["/v2/characters/:id/recipes", "a"],
  ["/v2/characters/:id/specializations", "ax"],
  ["/v2/characters/:id/training", "a"],
  ["/v2/colors", "l"],
  ["/v2/commerce/delivery", "a"],
  ["/v2/commerce/exchange/coins", ""],
  ["/v2/commerce/exchange/gems", ""],
  ["/v2/commerce/listings", ""],
  ["/v2/commerce/prices", ""],
  ["/v2/commerce/transactions", "a"],
  ["/v2/createsubtoken", "a"],
  ["/v2/currencies", "l"],
  ["/v2/dailycrafting", ""],
  ["/v2/dungeons", "l"],
  ["/v2/emblem/backgrounds", ""],
  ["/v2/emblem/foregrounds", ""],
  ["/v2/files", ""],
  ["/v2/finishers", "l"],
  ["/v2/gliders", "l"],
  ["/v2/guild/:id", ""],
  ["/v2/guild/:id/log", "a"],
  ["/v2/guild/:id/members", "a"],
  ["/v2/guild/:id/stash", "a"],
  ["/v2/guild/:id/treasury", "a"],
  ["/v2/guild/permissions", "l"],
  ["/v2/guild/search", ""],
  ["/v2/guild/upgrades", "l"],
  ["/v2/home/cats", "l"],
  ["/v2/home/nodes", ""],
  ["/v2/items", "l"],
  ["/v2/itemstats", "l"],
  ["/v2/legendaryarmory", ""],
  ["/v2/legends", ""],
  ["/v2/mailcarriers", "l"],
  ["/v2/mapchests", ""],
  ["/v2/maps", "l"],
  ["/v2/masteries", "l"],
  ["/v2/materials", "l"],
  ["/v2/minis", "l"],
  ["/v2/mounts/skins", "l"],
  ["/v2/mounts/types", "l"],
  ["/v2/novelties", "l"],
  ["/v2/outfits", "l"],
  ["/v2/pets", "l"],
  ["/v2/professions", "l"],
  ["/v2/pvp/amulets", "l"],
  ["/v2/pvp/games", "a"],
  ["/v2/pvp/ranks", "l"],
  ["/v2/pvp/seasons", "l"],
  ["/v2/pvp/standings", "a"],
  ["/v2/pvp/stats", "a"],
  ["/v2/quaggans", ""],
  ["/v2/quests", "l"],
  ["/v2/races", "l"],
  ["/v2/raids", "l"],
  ["/v2/recipes", ""],
  ["/v2/recipes/search", ""],
  ["/v2/skills", "l"],
  ["/v2/skins", "l"],
  ["/v2/specializations", "l"],
  ["/v2/stories", "l"],
  ["/v2/titles", "l"],
  ["/v2/tokeninfo", "a"],
  ["/v2/traits", "l"],
  ["/v2/wizardsvault", "l"],
  ["/v2/wizardsvault/listings", "l"],
  ["/v2/wizardsvault/objectives", "l"],
  ["/v2/worldbosses", ""],
  ["/v2/worlds", "l"],
  ["/v2/wvw/abilities", "l"],
  ["/v2/wvw/matches", ""],
  ["/v2/wvw/objectives", "l"],
  ["/v2/wvw/ranks", "l"],
];

/** `/v2.json` as the fake serves it. */
export const API_LIST: ApiList = {
  langs: ["en", "es", "de", "fr", "zh"],
  routes: ROUTES.map(([path, flags]) => ({
    path,
    lang: flags.includes("l"),
    auth: flags.includes("a"),
    active: !flags.includes("x"),
  })),
  schema_versions: [
    { v: "2019-02-21T00:00:00.000Z", desc: "Adds last_modified to accounts and characters." },
    { v: "2019-05-22T00:00:00.000Z", desc: "Adds the key type and expiry to tokeninfo." },
    { v: "2019-12-19T00:00:00.000Z", desc: "Adds build and equipment tabs." },
    { v: "2022-03-09T02:00:00.000Z", desc: "Recipe ingredients carry their type." },
    { v: "2024-07-20T01:00:00.000Z", desc: "Replaces wvw_rank with a wvw object." },
  ],
};
