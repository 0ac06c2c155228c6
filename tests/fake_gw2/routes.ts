/**
 * The endpoints the fake serves: path matching, the scopes each needs, its caching, and how it
 * answers from the world. Bulk endpoints delegate to `bulk.ts`; blob endpoints (account,
 * wallet, bank, …) return their record as is, shaped by the key's scopes and the requested
 * schema version.
 *
 * @module
 */

import type { Lang } from "../../src/gw2/types.ts";
import type { Scope, TestKey } from "./auth.ts";
import { bulkAnswer, type Collection, parseNumericId, splitIds } from "./bulk.ts";
import type { FakeBookState } from "./control.ts";
import type { MovingMarket } from "./world/market.ts";
import type { ListingRecord } from "./world/listings.ts";
import { type Answer, failure, ok, TEXT } from "./responses.ts";
import * as commerce from "./commerce.ts";
import { SCHEMA, schemaAtLeast } from "./schema_version.ts";
import type { FakeAccount } from "./world/account.ts";
import { learnedRecipeIds } from "./world/crafting_market.ts";
import { localizedRecords } from "./world/localized.ts";
import { TODAY_FIXED, TODAY_WITH_ID } from "./routes_today.ts";
import type { FakeWorld } from "./world/world.ts";
import type { AccountRecord, FakeCharacter } from "./world/types.ts";
import { ACHIEVEMENT_ROUTES, ACHIEVEMENT_ROUTES_WITH_ID } from "./routes_achievements.ts";

/** What an endpoint's answer may depend on. */
export interface RouteContext {
  readonly world: FakeWorld;
  readonly params: URLSearchParams;
  /** The requested schema (see `schema_version.ts`). */
  readonly schema: number;
  /** The authenticated key (always set for endpoints with scopes). */
  readonly key: TestKey | undefined;
  /** The decoded path capture (`/v2/items/:id`, `/v2/characters/:name/…`), if any. */
  readonly capture: string | undefined;
  /** Order books set apart by the control (`huge`, `sold_out`). */
  readonly books: ReadonlyMap<number, FakeBookState>;
  /** The moving Trading Post and the time to read it at, when the fake has one. */
  readonly market?: { readonly moving: MovingMarket; readonly now: number };
  /** The language asked for (`lang.ts`): localized endpoints answer in it. */
  readonly lang: Lang;
  /** `/v2/account`'s `last_modified` as the control set it (`setLastModified`), if it did. */
  readonly lastModified?: string;
  /** The fake's clock, epoch ms (account transactions are dated from it). */
  readonly now: number;
}

/** One endpoint. */
export interface Endpoint {
  /** Canonical name, e.g. `/v2/items` or `/v2/characters/:name/inventory`. */
  readonly name: string;
  /** Scopes a key needs; undefined for public endpoints. */
  readonly scopes: readonly Scope[] | undefined;
  readonly cacheControl: string;
  readonly localized: boolean;
  answer(context: RouteContext): Answer;
}

/** A request path matched to its endpoint. */
export interface ResolvedRoute {
  readonly endpoint: Endpoint;
  readonly capture: string | undefined;
}

const PUBLIC_CACHE = "public, max-age=3600";
const PRICES_CACHE = "public, max-age=60";
const PRIVATE_CACHE = "private, max-age=300";
const TOKEN_CACHE = "private, max-age=60";

function publicEndpoint(
  name: string,
  localized: boolean,
  answer: (context: RouteContext) => Answer,
  cacheControl = PUBLIC_CACHE,
): Endpoint {
  return { name, scopes: undefined, cacheControl, localized, answer };
}

function privateEndpoint(
  name: string,
  scopes: readonly Scope[],
  answer: (context: RouteContext) => Answer,
  cacheControl = PRIVATE_CACHE,
): Endpoint {
  return { name, scopes, cacheControl, localized: false, answer };
}

const collectionIds = new WeakMap<ReadonlyMap<number, unknown>, readonly number[]>();

/** A collection over a world map keyed by numeric id (`ids` defaults to every key). */
function numericCollection<V>(
  map: ReadonlyMap<number, V>,
  linkBase: string,
  options: { readonly allowAll?: boolean; readonly ids?: readonly number[] } = {},
): Collection<number> {
  let ids = options.ids ?? collectionIds.get(map);
  if (ids === undefined) {
    ids = [...map.keys()];
    collectionIds.set(map, ids);
  }
  const members = options.ids === undefined ? undefined : new Set(options.ids);
  return {
    ids,
    record: (id) => members === undefined || members.has(id) ? map.get(id) : undefined,
    parse: parseNumericId,
    allowAll: options.allowAll ?? false,
    noSuchText: TEXT.noSuchId,
    linkBase,
  };
}

function bulk(
  pick: (world: FakeWorld, lang: Lang) => ReadonlyMap<number, unknown>,
  path: string,
  allowAll = false,
): (context: RouteContext) => Answer {
  return ({ world, params, capture, lang }) =>
    bulkAnswer(numericCollection(pick(world, lang), path, { allowAll }), params, capture);
}

function recipesFor({ world, schema }: RouteContext): ReadonlyMap<number, unknown> {
  return schemaAtLeast(schema, SCHEMA.recipeIngredients) ? world.recipes : world.classicRecipes;
}

function recipeSearch(context: RouteContext): Answer {
  const { params, world } = context;
  const input = params.get("input");
  const output = params.get("output");
  if ((input === null) === (output === null)) return failure(400, TEXT.searchNeedsOneParameter);
  const [name, value] = input === null ? ["output", output ?? ""] : ["input", input];
  const itemId = parseNumericId(value.trim());
  const index = name === "input" ? world.recipesByInput : world.recipesByOutput;
  const matches = itemId === undefined ? [] : index.get(itemId) ?? [];
  const linkBase = `/v2/recipes/search?${name}=${encodeURIComponent(value)}`;
  const collection = numericCollection(recipesFor(context), linkBase, {
    allowAll: true,
    ids: matches,
  });
  return bulkAnswer(collection, params);
}

/** A gateway's error page, as the real API's 502 for a huge book (fresh text). */
const BAD_GATEWAY_PAGE =
  "<html><body><h1>502 Bad Gateway</h1><p>The server did not answer in time.</p></body></html>";

/**
 * `/v2/commerce/listings`: the world's books (`?ids=`, `?id=`, `/ID`, paged), each side cut to
 * `top=N` levels when given. A request naming a `huge` book answers 502 with a gateway's page,
 * whatever else it names; a `sold_out` book has no sell levels.
 */
function listings({ world, params, capture, books, market }: RouteContext): Answer {
  const named = capture ?? params.get("ids") ?? params.get("id");
  const asked = named === null ? [] : splitIds(named).map(parseNumericId);
  if (asked.some((id) => id !== undefined && books.get(id) === "huge")) {
    return { status: 502, body: null, html: BAD_GATEWAY_PAGE };
  }
  const top = /^\d{1,9}$/u.test(params.get("top") ?? "") ? Number(params.get("top")) : undefined;
  const view = (book: ListingRecord): ListingRecord => {
    const sells = books.get(book.id) === "sold_out" ? [] : book.sells;
    return top === undefined
      ? { ...book, sells }
      : { ...book, buys: book.buys.slice(0, top), sells: sells.slice(0, top) };
  };
  const collection: Collection<number> = {
    ids: world.listings.ids,
    record: (id) => {
      const book = world.listings.get(id);
      const base = world.prices.get(id);
      if (book === undefined) return undefined;
      return view(
        market === undefined || base === undefined
          ? book
          : market.moving.listing(book, base, market.now),
      );
    },
    parse: parseNumericId,
    allowAll: false,
    noSuchText: TEXT.noSuchId,
    linkBase: "/v2/commerce/listings",
  };
  return bulkAnswer(collection, params, capture);
}

/** The account a key reads: the veteran account for its key, the main account otherwise. */
function holder({ world, key }: RouteContext): FakeAccount {
  return key?.account === "veteran" ? world.veteran : world;
}

function has(key: TestKey | undefined, scope: Scope): boolean {
  return key?.permissions.includes(scope) === true;
}

/** `/v2/account` for a key and schema, in upstream field order. */
function accountView(
  account: AccountRecord,
  key: TestKey | undefined,
  schema: number,
  lastModified = account.last_modified,
): object {
  const progression = has(key, "progression");
  const modern = schemaAtLeast(schema, SCHEMA.accountWvw);
  return {
    id: account.id,
    name: key?.accountName ?? account.name,
    age: account.age,
    world: account.world,
    guilds: account.guilds,
    ...(has(key, "guilds") ? { guild_leader: account.guild_leader } : {}),
    ...(schemaAtLeast(schema, SCHEMA.lastModified) ? { last_modified: lastModified } : {}),
    created: account.created,
    access: account.access,
    commander: account.commander,
    ...(progression
      ? {
        fractal_level: account.fractal_level,
        daily_ap: account.daily_ap,
        monthly_ap: account.monthly_ap,
      }
      : {}),
    ...(progression && !modern ? { wvw_rank: account.wvw_rank } : {}),
    ...((progression || has(key, "wvw")) && modern ? { wvw: account.wvw } : {}),
    ...(has(key, "builds") && schemaAtLeast(schema, SCHEMA.buildStorage)
      ? { build_storage_slots: account.build_storage_slots }
      : {}),
  };
}

function characterView(
  character: FakeCharacter,
  key: TestKey | undefined,
  schema: number,
): object {
  const { last_modified: _lastModified, ...classic } = character.record;
  const core = schemaAtLeast(schema, SCHEMA.lastModified) ? character.record : classic;
  const tabs = schemaAtLeast(schema, SCHEMA.buildStorage);
  const equipment = character.equipment.map(({ location: _location, tabs: _tabs, ...entry }) =>
    tabs ? { ...entry, location: _location, tabs: _tabs } : entry
  );
  return {
    ...core,
    ...(has(key, "inventories") || has(key, "builds") ? { equipment } : {}),
    ...(has(key, "inventories") ? { bags: character.inventory.bags } : {}),
  };
}

function characters(context: RouteContext): Answer {
  const { params, capture, key, schema } = context;
  const account = holder(context);
  const collection: Collection<string> = {
    ids: [...account.characters.keys()],
    record: (name) => {
      const character = account.characters.get(name);
      return character === undefined ? undefined : characterView(character, key, schema);
    },
    parse: (token) => token,
    allowAll: true,
    noSuchText: TEXT.noSuchCharacter,
    linkBase: "/v2/characters",
  };
  return bulkAnswer(collection, params, capture);
}

function characterInventory(context: RouteContext): Answer {
  const { capture } = context;
  const character = capture === undefined ? undefined : holder(context).characters.get(capture);
  return character === undefined ? failure(404, TEXT.noSuchCharacter) : ok(character.inventory);
}

function tokenInfo({ key, schema }: RouteContext): Answer {
  if (key === undefined) return failure(401, TEXT.invalidAccessToken);
  return ok({
    id: key.subtoken?.parentId ?? key.key.slice(0, 36),
    name: key.name,
    permissions: key.permissions,
    ...(schemaAtLeast(schema, SCHEMA.tokenType)
      ? key.subtoken === undefined ? { type: "APIKey" } : {
        type: "Subtoken",
        expires_at: new Date(key.subtoken.expiresAt).toISOString(),
        issued_at: new Date(key.subtoken.issuedAt).toISOString(),
      }
      : {}),
  });
}

const fixedPrices = bulk((w) => w.prices, "/v2/commerce/prices");

/** `/v2/commerce/prices` of the moving market: the world's records as they stand now. */
function movingPrices({ world, params, capture, market }: RouteContext): Answer {
  const collection = numericCollection(world.prices, "/v2/commerce/prices");
  const record = (id: number) => {
    const base = world.prices.get(id);
    return base === undefined || market === undefined
      ? undefined
      : market.moving.price(base, market.now);
  };
  return bulkAnswer({ ...collection, record }, params, capture);
}

const ITEMS = publicEndpoint(
  "/v2/items",
  true,
  bulk((w, lang) => localizedRecords(w, lang).items, "/v2/items"),
);
const RECIPES = publicEndpoint(
  "/v2/recipes",
  false,
  (context) =>
    bulkAnswer(
      numericCollection(recipesFor(context), "/v2/recipes"),
      context.params,
      context.capture,
    ),
);
const RECIPE_SEARCH = publicEndpoint("/v2/recipes/search", false, recipeSearch);
const PRICES = publicEndpoint(
  "/v2/commerce/prices",
  false,
  (context) => context.market === undefined ? fixedPrices(context) : movingPrices(context),
  PRICES_CACHE,
);
const LISTINGS = publicEndpoint("/v2/commerce/listings", false, listings, PRICES_CACHE);
const MATERIALS = publicEndpoint(
  "/v2/materials",
  true,
  bulk((w, lang) => localizedRecords(w, lang).materials, "/v2/materials", true),
);
const CURRENCIES = publicEndpoint(
  "/v2/currencies",
  true,
  bulk((w, lang) => localizedRecords(w, lang).currencies, "/v2/currencies", true),
);
const ACCOUNT = privateEndpoint(
  "/v2/account",
  ["account"],
  (context) =>
    ok(accountView(holder(context).account, context.key, context.schema, context.lastModified)),
);
const ACCOUNT_MATERIALS = privateEndpoint(
  "/v2/account/materials",
  ["account", "inventories"],
  (context) => ok(holder(context).accountMaterials),
);
const ACCOUNT_WALLET = privateEndpoint(
  "/v2/account/wallet",
  ["account", "wallet"],
  (context) => ok(holder(context).wallet),
);
const ACCOUNT_BANK = privateEndpoint(
  "/v2/account/bank",
  ["account", "inventories"],
  (context) => ok(holder(context).bank),
);
const ACCOUNT_INVENTORY = privateEndpoint(
  "/v2/account/inventory",
  ["account", "inventories"],
  (context) => ok(holder(context).sharedInventory),
);
const ACCOUNT_RECIPES = privateEndpoint(
  "/v2/account/recipes",
  ["account", "unlocks"],
  (context) =>
    ok(learnedRecipeIds(
      context.world.recipes,
      holder(context) === context.world.veteran ? "veteran" : "main",
    )),
);
const LEGENDARY_ARMORY = publicEndpoint(
  "/v2/legendaryarmory",
  false,
  bulk((w) => w.armoryLimits, "/v2/legendaryarmory", true),
);
const ACCOUNT_LEGENDARY_ARMORY = privateEndpoint(
  "/v2/account/legendaryarmory",
  ["account", "inventories", "unlocks"],
  (context) => ok(holder(context).legendaryArmory),
);
const CHARACTERS = privateEndpoint("/v2/characters", ["account", "characters"], characters);
const CHARACTER_INVENTORY = privateEndpoint(
  "/v2/characters/:name/inventory",
  ["account", "characters", "inventories"],
  characterInventory,
);
const TOKEN_INFO = privateEndpoint("/v2/tokeninfo", [], tokenInfo, TOKEN_CACHE);

/** The Trading Post's account endpoints (`commerce.ts`) and the gem exchange, by path. */
const COMMERCE: readonly (readonly [string, Endpoint])[] = [
  ...(["current", "history"] as const).flatMap((when) =>
    (["buys", "sells"] as const).map((side): readonly [string, Endpoint] => {
      const path = `v2/commerce/transactions/${when}/${side}`;
      const list = `${when}${side === "buys" ? "Buys" : "Sells"}` as const;
      return [
        path,
        privateEndpoint(
          `/${path}`,
          ["account", "tradingpost"],
          commerce.transactions(list, `/${path}`),
        ),
      ];
    })
  ),
  [
    "v2/commerce/delivery",
    privateEndpoint("/v2/commerce/delivery", ["account", "tradingpost"], commerce.delivery),
  ],
  [
    "v2/commerce/exchange/gems",
    publicEndpoint("/v2/commerce/exchange/gems", false, commerce.exchangeGems, PRICES_CACHE),
  ],
  [
    "v2/commerce/exchange/coins",
    publicEndpoint("/v2/commerce/exchange/coins", false, commerce.exchangeCoins, PRICES_CACHE),
  ],
];

const FIXED: ReadonlyMap<string, Endpoint> = new Map([
  ["v2/items", ITEMS],
  ["v2/recipes", RECIPES],
  ["v2/recipes/search", RECIPE_SEARCH],
  ["v2/commerce/prices", PRICES],
  ["v2/commerce/listings", LISTINGS],
  ["v2/materials", MATERIALS],
  ["v2/currencies", CURRENCIES],
  ["v2/account", ACCOUNT],
  ["v2/account/materials", ACCOUNT_MATERIALS],
  ["v2/account/wallet", ACCOUNT_WALLET],
  ["v2/account/bank", ACCOUNT_BANK],
  ["v2/account/inventory", ACCOUNT_INVENTORY],
  ["v2/account/recipes", ACCOUNT_RECIPES],
  ["v2/account/legendaryarmory", ACCOUNT_LEGENDARY_ARMORY],
  ["v2/legendaryarmory", LEGENDARY_ARMORY],
  ["v2/characters", CHARACTERS],
  ["v2/tokeninfo", TOKEN_INFO],
  ...ACHIEVEMENT_ROUTES,
  ...TODAY_FIXED,
  ...COMMERCE,
]);

/** Endpoints that take a trailing `/:id`. */
const WITH_ID: ReadonlyMap<string, Endpoint> = new Map([
  ["v2/items", ITEMS],
  ["v2/recipes", RECIPES],
  ["v2/commerce/prices", PRICES],
  ["v2/commerce/listings", LISTINGS],
  ["v2/materials", MATERIALS],
  ["v2/currencies", CURRENCIES],
  ["v2/legendaryarmory", LEGENDARY_ARMORY],
  ["v2/characters", CHARACTERS],
  ...ACHIEVEMENT_ROUTES_WITH_ID,
  ...TODAY_WITH_ID,
]);

/** Matches a request path (as sent, percent-encoded) to its endpoint. */
export function resolveRoute(pathname: string): ResolvedRoute | undefined {
  const trimmed = pathname.replace(/^\/+|\/+$/gu, "");
  const fixed = FIXED.get(trimmed);
  if (fixed !== undefined) return { endpoint: fixed, capture: undefined };
  const segments = trimmed.split("/");
  const inventory = segments.length === 4 && segments[0] === "v2" &&
    segments[1] === "characters" && segments[3] === "inventory";
  if (inventory) return { endpoint: CHARACTER_INVENTORY, capture: decode(segments[2] ?? "") };
  const parent = WITH_ID.get(segments.slice(0, -1).join("/"));
  const last = segments.at(-1);
  if (parent === undefined || last === undefined) return undefined;
  return { endpoint: parent, capture: decode(last) };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Malformed percent-encoding can name no record; keep it as is so the lookup 404s.
    return segment;
  }
}
