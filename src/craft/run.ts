/**
 * `priory_craft_profit`'s work: the market sheet (read within the call's time when stale), the
 * recipe catalogue (filled when missing) and, with `useAccount`, what the account can craft - all
 * at once; then the scan (`scanner.ts`: one pass per sheet, exact rows on demand), the order books
 * of the rows' outputs and purchases in one batched read, the run of crafts each row can make
 * (`depth.ts`), and the rows' names (in the language asked).
 *
 * @module
 */

import { deadlineOrSignal, startDeadline } from "../async/deadline.ts";
import { requireScopes } from "../account/scopes.ts";
import type { Discipline } from "../gw2/schemas.ts";
import type { Gw2Client } from "../gw2/types.ts";
import type { MarketSheets } from "../market/sheets.ts";
import { oldestStaleAge } from "../staleness.ts";
import { itemNamesFor, type Naming } from "../tree/names.ts";
import { readTreeBooks } from "../tree/prices.ts";
import { type AccountCrafting, accountCrafting, craftFilter } from "./fit.ts";
import { depthInput, walkCrafts } from "./depth.ts";
import type { CraftScanner } from "./scanner.ts";
import { type CraftRow, craftRow } from "./shape.ts";

/** The key's scopes `useAccount` needs: learned recipes (`unlocks`) and the characters' crafting. */
export const CRAFT_ACCOUNT_SCOPES = ["account", "unlocks", "characters"] as const;

/**
 * How long a call waits for the sheet and the catalogue, leaving the rest of its time (15 s,
 * work stopping 1 s before) for the scan, the books and the names.
 */
export const CRAFT_WAIT_MS = 11_000;

/** What to scan for. */
export interface CraftRequest {
  readonly limit: number;
  readonly discipline?: Discipline | undefined;
  readonly includeTimeGated: boolean;
  /** The player's key, for `useAccount`. */
  readonly gw2Key?: string | undefined;
  /** The language to name the rows in (English when absent). */
  readonly naming?: Naming | undefined;
}

/** What the scan needs of the process. */
export interface CraftServices {
  readonly sheets: MarketSheets;
  readonly scanner: CraftScanner;
  /**
   * Units the market sells a day, by item id, where the price history knows (`soldPerDay` on a
   * row); absent without a history. A failure leaves the rows without it.
   */
  readonly soldPerDay?: (ids: readonly number[]) => Promise<ReadonlyMap<number, number>>;
  /** The call's signal: it aborts when the call's work must stop. */
  readonly signal?: AbortSignal | undefined;
}

/** The tool's answer. (An object type, not an interface, to fit the loose output schema.) */
export type CraftProfitResult = {
  readonly opportunities: CraftRow[];
  readonly scanned: {
    /** Official recipes in the catalogue. */
    readonly recipes: number;
    /** Of those (one per item), the ones whose output has a buy order. */
    readonly sellable: number;
    /** Of those, the ones whose profit bound is positive (priced exactly as needed). */
    readonly candidates: number;
  };
  /** When the prices were taken (ISO 8601). */
  readonly pricesAt: string;
  readonly stale_age_s?: number;
};

/**
 * Scans every recipe for the most profitable crafts now.
 *
 * @throws {MarketSheetPendingError} no market sheet yet, and none read in time
 * @throws {CraftCatalogueError} no recipe catalogue (off, still being read, or failed)
 * @throws a `Gw2Failure` (a missing scope named, with `useAccount`)
 */
export async function runCraftProfit(
  gw2: Gw2Client,
  services: CraftServices,
  request: CraftRequest,
): Promise<CraftProfitResult> {
  const { scanner, sheets } = services;
  using timer = startDeadline(scanner.clock, CRAFT_WAIT_MS);
  const wait = services.signal === undefined ? timer : deadlineOrSignal(timer, services.signal);
  const account = request.gw2Key === undefined
    ? undefined
    : readAccountCrafting(gw2, request.gw2Key);
  // Each is awaited below; a failure of one must not leave another unobserved.
  account?.catch(() => undefined);
  const [market, recipes] = await Promise.all([sheets.forCall(wait), scanner.recipes(wait)]);
  const crafting = await account;
  const scan = scanner.scan(recipes, market.sheet);
  const { graph } = scan;
  const fit = craftFilter(graph, { discipline: request.discipline, account: crafting });
  const crafts = scan.rows.top(
    { includeTimeGated: request.includeTimeGated, accepts: fit.accepts },
    request.limit,
  );
  const bookIds = [
    ...new Set(crafts.flatMap((craft) => [
      craft.outputId,
      ...craft.purchases.market.map((line) => line.id),
    ])),
  ];
  const outputIds = crafts.map((craft) => craft.outputId);
  const [books, names, sold] = await Promise.all([
    readTreeBooks(gw2, bookIds),
    craftNames(gw2, outputIds, request.naming),
    services.soldPerDay?.(outputIds).catch(() => undefined),
  ]);
  const opportunities = crafts.map((craft) =>
    craftRow(craft, {
      graph,
      name: names.get(craft.outputId),
      discipline: fit.discipline(craft.recipe),
      depth: walkCrafts(depthInput(craft, books.books)),
      flagSheets: crafting === undefined,
      soldPerDay: sold?.get(craft.outputId),
    })
  );
  const stale = oldestStaleAge(market.staleAgeMs, books.staleAgeMs);
  return {
    opportunities,
    scanned: {
      recipes: graph.officialRecipes,
      sellable: scan.pass.sellable,
      candidates: scan.pass.candidates.length,
    },
    pricesAt: new Date(market.sheet.takenAt).toISOString(),
    ...(stale === undefined ? {} : { stale_age_s: Math.round(stale / 1000) }),
  };
}

/**
 * The names of the rows' items, in `naming`'s language where one is known (the name index, then
 * `/v2/items?lang=`), else English.
 */
export async function craftNames(
  gw2: Gw2Client,
  ids: readonly number[],
  naming?: Naming,
): Promise<ReadonlyMap<number, string>> {
  if (ids.length === 0) return new Map();
  const localized = naming === undefined
    ? new Map<number, string>()
    : await itemNamesFor(gw2, naming, ids, new Map());
  const english = ids.filter((id) => !localized.has(id));
  if (english.length === 0) return localized;
  const read = await gw2.items(english);
  return new Map([...read.found.map((item) => [item.id, item.name] as const), ...localized]);
}

/** What the account can craft: its learned recipes and its characters' disciplines, at once. */
async function readAccountCrafting(gw2: Gw2Client, key: string): Promise<AccountCrafting> {
  await requireScopes(gw2, key, CRAFT_ACCOUNT_SCOPES);
  const [learned, characters] = await Promise.all([
    gw2.doc("accountRecipes", { key }),
    gw2.doc("characterBags", { key }),
  ]);
  return accountCrafting(learned.value, characters.value);
}
