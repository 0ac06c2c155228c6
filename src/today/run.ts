/**
 * `priory_today`'s work: `/v2/account` (its `last_modified` tells which periods are stale), then
 * at once each part's catalogue (cached a day) with the account's completions of it (at most 5
 * minutes), the Wizard's Vault's three tracks, the wallet's Astral Acclaim, and - for the daily
 * crafts' profits - the crafting scan at the current market sheet, waited for a few seconds at
 * most. A part the key lacks a scope for is named in `unread` and the rest answers; any other
 * failure fails the call. The shaping is `shape.ts`'s.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { deadlineOrSignal, startDeadline } from "../async/deadline.ts";
import { readPart, unreadOf, valueOf } from "../account/unread.ts";
import { craftNames } from "../craft/run.ts";
import { CraftCatalogueError, type CraftScanner } from "../craft/scanner.ts";
import { isGw2Failure } from "../gw2/errors.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { MarketSheetPendingError, type MarketSheets } from "../market/sheets.ts";
import type { Naming } from "../tree/names.ts";
import {
  DAILY_CRAFT_ITEMS,
  type DailyEarning,
  dailyEarning,
  type ScanView,
} from "./daily_crafts.ts";
import {
  type Completions,
  type DailyCraftFacts,
  shapeToday,
  type TodayResult,
  type VaultProgress,
} from "./shape.ts";

/** Astral Acclaim's wallet currency id. */
export const ASTRAL_ACCLAIM = 63;

/**
 * How long a call waits for the market sheet and the recipe catalogue behind the daily crafts'
 * profits (both kept warm by the background jobs; a cold server reads them once for everyone):
 * past it, the crafts are listed without `profit` rather than the day's answer waiting.
 */
export const TODAY_SCAN_WAIT_MS = 5_000;

/** What the call needs of the process. */
export interface TodayServices {
  /** The call's clock: the time the resets are counted from. */
  readonly clock: Clock;
  /** The market sheet and the crafting scan, for the daily crafts' profits (absent: none). */
  readonly sheets?: MarketSheets | undefined;
  readonly scanner?: CraftScanner | undefined;
  /** The call's signal: it aborts when the call's work must stop. */
  readonly signal?: AbortSignal | undefined;
}

/** Whose day, named in which language. */
export interface TodayRequest {
  /** The player's key. */
  readonly key: string;
  /** The language of the crafts' item names (English when absent). */
  readonly naming?: Naming | undefined;
}

/**
 * The day's answer for the account of `request.key`.
 *
 * @throws a `Gw2Failure` (a rejected key, an outage; a missing scope only for `/v2/account`)
 */
export async function runToday(
  gw2: Gw2Client,
  services: TodayServices,
  request: TodayRequest,
): Promise<TodayResult> {
  const { key } = request;
  const scan = readScan(services);
  // The crafts' own names, read beside the parts (not after them): a round trip less when cold.
  const craftNamesRead = namesOf(gw2, [...DAILY_CRAFT_ITEMS.values()], request.naming);
  // Each is awaited below unless a part fails the call first: none may be left unobserved.
  scan.catch(() => undefined);
  craftNamesRead.catch(() => undefined);
  const [account, crafting, bosses, chests, dungeons, raids, vault, wallet] = await Promise.all([
    gw2.doc("account", { key }),
    readPart(
      "dailyCrafting",
      () => completions(gw2.doc("dailyCrafting"), gw2.doc("accountDailyCrafting", { key })),
    ),
    readPart(
      "worldBosses",
      () => completions(gw2.doc("worldBosses"), gw2.doc("accountWorldBosses", { key })),
    ),
    readPart(
      "mapChests",
      () => completions(gw2.doc("mapChests"), gw2.doc("accountMapChests", { key })),
    ),
    readPart(
      "dungeons",
      () => completions(gw2.doc("dungeons"), gw2.doc("accountDungeons", { key })),
    ),
    readPart("raids", () => completions(gw2.doc("raids"), gw2.doc("accountRaids", { key }))),
    readPart("wizardsVault", () => readVault(gw2, key)),
    readPart("acclaim", () => gw2.doc("accountWallet", { key })),
  ]);
  const daily = valueOf(crafting);
  const facts = daily === undefined
    ? undefined
    : await craftFacts(gw2, daily.catalogue, await scan, {
      known: await craftNamesRead,
      naming: request.naming,
    });
  const [worldBosses, mapChests, paths, clears, progress, held] = [
    valueOf(bosses),
    valueOf(chests),
    valueOf(dungeons),
    valueOf(raids),
    valueOf(vault),
    valueOf(wallet)?.value,
  ];
  return shapeToday({
    now: services.clock.now(),
    lastModified: account.value.last_modified,
    ...(daily === undefined || facts === undefined ? {} : { dailyCrafting: { ...daily, facts } }),
    ...(worldBosses === undefined ? {} : { worldBosses }),
    ...(mapChests === undefined ? {} : { mapChests }),
    ...(paths === undefined ? {} : { dungeons: paths }),
    ...(clears === undefined ? {} : { raids: clears }),
    ...(progress === undefined ? {} : { vault: progress }),
    // A wallet read without Astral Acclaim holds none.
    ...(held === undefined
      ? {}
      : { acclaim: held.find((entry) => entry.id === ASTRAL_ACCLAIM)?.value ?? 0 }),
    unread: unreadOf([crafting, bosses, chests, dungeons, raids, vault, wallet]),
  });
}

/** A catalogue and the account's completions of it, read at once. */
async function completions<C>(
  catalogue: Promise<{ readonly value: C }>,
  done: Promise<{ readonly value: readonly string[] }>,
): Promise<Completions<C>> {
  const [all, completed] = await Promise.all([catalogue, done]);
  return { catalogue: all.value, done: completed.value };
}

/**
 * The Vault's daily, weekly and special tracks, and the season's start (for the special track's
 * staleness; a season upstream cannot give is left out rather than failing the day's answer).
 */
async function readVault(gw2: Gw2Client, key: string): Promise<VaultProgress> {
  const season = gw2.doc("vaultSeason").then((read) => read.value.start, () => undefined);
  const [daily, weekly, special, seasonStart] = await Promise.all([
    gw2.doc("accountVaultDaily", { key }),
    gw2.doc("accountVaultWeekly", { key }),
    gw2.doc("accountVaultSpecial", { key }),
    season,
  ]);
  return {
    daily: daily.value,
    weekly: weekly.value,
    special: special.value,
    ...(seasonStart === undefined ? {} : { seasonStart }),
  };
}

/**
 * The crafting scan at the current sheet, waited for {@linkcode TODAY_SCAN_WAIT_MS} at most;
 * `undefined` when the server has none, or it is not ready in time, or upstream failed it (the
 * crafts then go without a profit). Never rejects for those.
 */
async function readScan(services: TodayServices): Promise<ScanView | undefined> {
  const { scanner, sheets } = services;
  if (scanner === undefined || sheets === undefined) return undefined;
  using timer = startDeadline(scanner.clock, TODAY_SCAN_WAIT_MS);
  const wait = services.signal === undefined ? timer : deadlineOrSignal(timer, services.signal);
  try {
    const [market, recipes] = await Promise.all([sheets.forCall(wait), scanner.recipes(wait)]);
    return scanner.scan(recipes, market.sheet);
  } catch (error) {
    if (
      error instanceof MarketSheetPendingError || error instanceof CraftCatalogueError ||
      isGw2Failure(error)
    ) return undefined;
    throw error;
  }
}

/**
 * The names of item `ids` in `naming`'s language (English when absent); none when upstream cannot
 * give them (the crafts then keep their ids' readable names). Never rejects for that.
 */
async function namesOf(
  gw2: Gw2Client,
  ids: readonly number[],
  naming: Naming | undefined,
): Promise<ReadonlyMap<number, string>> {
  try {
    return await craftNames(gw2, ids, naming);
  } catch (error) {
    if (isGw2Failure(error)) return new Map();
    throw error;
  }
}

/**
 * Each daily craft's item name (in the language asked) and what one craft earns, with the name
 * of the item it is sold as (read now: `names.known` holds the crafts' own).
 */
async function craftFacts(
  gw2: Gw2Client,
  catalogue: readonly string[],
  scan: ScanView | undefined,
  names: { readonly known: ReadonlyMap<number, string>; readonly naming: Naming | undefined },
): Promise<ReadonlyMap<string, DailyCraftFacts>> {
  const earned = new Map<string, { readonly item: number; readonly earning?: DailyEarning }>();
  for (const id of catalogue) {
    const item = DAILY_CRAFT_ITEMS.get(id);
    if (item === undefined) continue;
    const earning = scan === undefined ? undefined : dailyEarning(scan, item);
    earned.set(id, earning === undefined ? { item } : { item, earning });
  }
  const missing = [...earned.values()].flatMap(({ item, earning }) =>
    [item, ...(earning?.via === undefined ? [] : [earning.via])].filter((id) =>
      !names.known.has(id)
    )
  );
  const read = missing.length === 0
    ? new Map<number, string>()
    : await namesOf(gw2, [...new Set(missing)], names.naming);
  const all = new Map([...names.known, ...read]);
  const facts = new Map<string, DailyCraftFacts>();
  for (const [id, { item, earning }] of earned) {
    const name = all.get(item);
    const via = earning?.via;
    facts.set(id, {
      ...(name === undefined ? {} : { name }),
      ...(earning === undefined ? {} : { profit: earning.profit }),
      ...(via === undefined ? {} : { via: { id: via, name: all.get(via) ?? `Item ${via}` } }),
    });
  }
  return facts;
}
