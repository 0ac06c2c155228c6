/**
 * The whole process as `main.ts` wires it, background included, in-process: the fake GW2 API,
 * a KV (in memory unless one is given, so a "restart" can reopen the same one), the name index,
 * the recipe catalogue, the interactive client (recipe lookups from the catalogue), the
 * background client (reserve, refresh-ahead, one attempt per request), the background jobs
 * (their stop signal ends their reads, as shutdown's first step does in `main.ts`), and the HTTP
 * handler (call deadlines on the test clock). Each client's requests are recorded with the clock
 * time they were sent.
 *
 * @module
 */

import {
  backgroundClientOptions,
  type BackgroundJobs,
  createBackgroundJobs,
} from "../../src/background/jobs.ts";
import { RecipeCatalogue } from "../../src/catalogue/recipe_catalogue.ts";
import { catalogueRecipeIndex, lazyPages } from "../../src/catalogue/recipe_lookup.ts";
import { RecipeStore } from "../../src/catalogue/recipe_store.ts";
import {
  BucketPriority,
  createGw2Client,
  type InstrumentedGw2Client,
} from "../../src/gw2/client.ts";
import type { CatalogueItem } from "../../src/gw2/schemas.ts";
import type { Gw2Client, Lang } from "../../src/gw2/types.ts";
import type { Handler } from "../../src/http/handler.ts";
import { createLogger, type Logger } from "../../src/log.ts";
import { CraftScanner } from "../../src/craft/scanner.ts";
import { HistoryReader } from "../../src/history/query.ts";
import { HistoryStore } from "../../src/history/store.ts";
import { MarketSheets } from "../../src/market/sheets.ts";
import { SheetStore } from "../../src/market/sheet_store.ts";
import { NameIndex } from "../../src/search/name_index.ts";
import { createFakeGw2, type FakeGw2 } from "../fake_gw2/mod.ts";
import { createTestHandler } from "./app.ts";
import { ManualClock } from "./clock.ts";

/** One request a client sent: when (clock time) and where. */
export interface SentRequest {
  readonly at: number;
  readonly path: string;
  readonly query: URLSearchParams;
}

/** The background-enabled process. Dispose it (`await using`). */
export interface BackgroundApp extends AsyncDisposable {
  readonly fake: FakeGw2;
  readonly kv: Deno.Kv;
  readonly clock: ManualClock;
  readonly names: NameIndex;
  readonly recipes: RecipeCatalogue;
  readonly recipeStore: RecipeStore;
  /** The price history's store, as the jobs write it, and its reader, as the tools read it. */
  readonly historyStore: HistoryStore;
  readonly history: HistoryReader;
  /** The interactive client as the handler sees it (recipe lookups from the catalogue). */
  readonly gw2: Gw2Client;
  /** The interactive client itself: its counters and the bucket level. */
  readonly interactiveGw2: InstrumentedGw2Client;
  readonly backgroundGw2: InstrumentedGw2Client;
  /** The background client as the jobs see it (recipe lookups from the catalogue). */
  readonly backgroundView: Gw2Client;
  readonly jobs: BackgroundJobs;
  /** The market sheet, when `sheet` was asked for (the sheet job runs only then). */
  readonly sheets: MarketSheets | undefined;
  readonly handler: Handler;
  /** Requests of the interactive client, and of the background client. */
  readonly sent: { readonly interactive: SentRequest[]; readonly background: SentRequest[] };
  readonly logs: string[];
  readonly log: Logger;
}

/** Options of {@linkcode startBackgroundApp}. */
export interface BackgroundAppOptions {
  /** The jobs' full collection (`main.ts` passes the runtime's); none when absent. */
  readonly collect?: () => void;
  /** A KV to share with another app (a restart); `:memory:` of its own otherwise. */
  readonly kv?: Deno.Kv;
  /** A fake to share with another app; a new one otherwise. */
  readonly fake?: FakeGw2;
  /** A clock to share; a new one (delays advance at once) otherwise. */
  readonly clock?: ManualClock;
  /** `PRIORY_CATALOGUE`. @default true */
  readonly catalogue?: boolean;
  /** @default 300 */
  readonly rateBurst?: number;
  /** @default 5 */
  readonly ratePerSec?: number;
  /**
   * Held before each background request is sent, when given (to keep a warm-up running); told
   * the request's path.
   */
  readonly backgroundGate?: (path: string) => Promise<void>;
  /** This process's id. @default "instance-a" */
  readonly owner?: string;
  /**
   * Wires the market sheet as `main.ts` does: its job, on-demand reads over the interactive
   * client, price reads answered from it while fresh. @default false (the older tests count the
   * warm-up's requests alone)
   */
  readonly sheet?: boolean;
  /** `PRIORY_SNAPSHOT_MINUTES`: the sheet's period and the history's. @default 5 */
  readonly snapshotMinutes?: number;
}

const BASE = "http://gw2.test";

/** Starts the process. */
export async function startBackgroundApp(
  options: BackgroundAppOptions = {},
): Promise<BackgroundApp> {
  const clock = options.clock ?? new ManualClock({ advance: "delays" });
  const logs: string[] = [];
  const log = createLogger({
    level: "debug",
    write: (line) => logs.push(line),
    now: () => clock.now(),
  });
  const fake = options.fake ?? createFakeGw2({ now: () => clock.now() });
  const kv = options.kv ?? await Deno.openKv(":memory:");
  const catalogue = options.catalogue ?? true;
  const rateBurst = options.rateBurst ?? 300;
  const ratePerSec = options.ratePerSec ?? 5;
  const names = new NameIndex({ kv, namespace: BASE, log, clock });
  const recipeStore = new RecipeStore({ kv, namespace: BASE });
  const recipes = new RecipeCatalogue({ store: recipeStore, clock, log });
  const historyStore = new HistoryStore({ kv, namespace: BASE, clock });
  const snapshotMinutes = options.snapshotMinutes ?? 5;
  const history = new HistoryReader({ store: historyStore, clock, snapshotMinutes });
  const sent = { interactive: [] as SentRequest[], background: [] as SentRequest[] };
  const sheets = options.sheet === true
    ? new MarketSheets({
      store: new SheetStore({ kv, namespace: BASE }),
      clock,
      log,
      periodMs: snapshotMinutes * 60_000,
      pages: {
        // Called only once the client below exists.
        pricesPage: (page, size, deadline) => interactiveGw2.pricesPage(page, size, deadline),
      },
    })
    : undefined;
  const recording =
    (into: SentRequest[], gate?: (path: string) => Promise<void>) =>
    async (input: string, init: RequestInit): Promise<Response> => {
      const url = new URL(input);
      await gate?.(url.pathname);
      into.push({ at: clock.now(), path: url.pathname, query: url.searchParams });
      return await fake.fetch(new Request(input, init));
    };
  const upstream = {
    baseUrl: BASE,
    kv,
    clock,
    log,
    rate: { burst: rateBurst, perSec: ratePerSec },
    priority: new BucketPriority(),
    onItemsFetched: (items: readonly CatalogueItem[], lang: Lang) => names.record(items, lang),
    ...(sheets === undefined ? {} : { priceSheet: (ids: readonly number[]) => sheets.prices(ids) }),
  };
  // Recipe lookups from the catalogue, through the asking client's own pages, as in main.ts.
  const recipeIndex = (client: () => InstrumentedGw2Client) =>
    catalogue ? { recipeIndex: catalogueRecipeIndex(recipes, lazyPages(client)) } : {};
  const interactiveGw2: InstrumentedGw2Client = createGw2Client({
    ...upstream,
    fetch: recording(sent.interactive),
    ...recipeIndex(() => interactiveGw2),
  });
  const gw2 = interactiveGw2;
  const backgroundGw2: InstrumentedGw2Client = createGw2Client({
    ...upstream,
    ...backgroundClientOptions(rateBurst),
    fetch: recording(sent.background, options.backgroundGate),
    ...recipeIndex(() => backgroundGw2),
  });
  const backgroundView = backgroundGw2;
  const jobs = createBackgroundJobs({
    kv,
    namespace: BASE,
    owner: options.owner ?? "instance-a",
    clock,
    log,
    gw2: backgroundView,
    pages: backgroundGw2,
    names,
    recipes: recipeStore,
    catalogue: recipes,
    ...(sheets === undefined ? {} : { sheets }),
    catalogueEnabled: catalogue,
    ratePerSec,
    history: historyStore,
    snapshotMinutes,
    collect: options.collect,
  });
  // As main.ts wires it: each sheet published here is a snapshot of the price history.
  sheets?.onSheet((sheet, previous) => jobs.snapshot(sheet, previous));
  const handler = createTestHandler({
    gw2,
    names,
    log,
    clock,
    services: {
      history,
      ...(sheets === undefined ? {} : {
        sheets,
        crafting: new CraftScanner({
          catalogue: catalogue ? recipes : undefined,
          pages: interactiveGw2,
          clock,
          log,
        }),
      }),
    },
  });
  return {
    fake,
    kv,
    clock,
    names,
    recipes,
    recipeStore,
    historyStore,
    history,
    gw2,
    interactiveGw2,
    backgroundGw2,
    backgroundView,
    jobs,
    sheets,
    handler,
    sent,
    logs,
    log,
    [Symbol.asyncDispose]: async () => {
      await jobs.stop(0);
      await handler[Symbol.asyncDispose]();
      if (options.kv === undefined) kv.close();
    },
  };
}

/** The requests to `path` among `sent`. */
export function to(sent: readonly SentRequest[], path: string): SentRequest[] {
  return sent.filter((request) => request.path === path);
}
