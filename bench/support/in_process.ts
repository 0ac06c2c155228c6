/**
 * Servers inside the current process — each a request handler served on a free port of 127.0.0.1 as
 * a {@linkcode BenchServer}, and the floor, for the runner's own test (which must not spawn); and
 * Priory's handler without its background jobs, for a scenario that must measure one call
 * alone. The scenarios compared against the floor always run servers in processes of their own.
 *
 * @module
 */

import { type Clock, systemClock } from "../../src/async/clock.ts";
import { RecipeCatalogue } from "../../src/catalogue/recipe_catalogue.ts";
import { catalogueRecipeIndex, lazyPages } from "../../src/catalogue/recipe_lookup.ts";
import { RecipeStore } from "../../src/catalogue/recipe_store.ts";
import { createGw2Client, type InstrumentedGw2Client } from "../../src/gw2/client.ts";
import { createHandler } from "../../src/http/handler.ts";
import { silentLogger } from "../../src/log.ts";
import { NameIndex } from "../../src/search/name_index.ts";
import { createFloorHandler } from "../floor.ts";
import type { BenchServer } from "../scenario.ts";

/** Serves `handler` on a free port of 127.0.0.1; `release` runs after the server stops. */
export function serveInProcess(
  handler: (request: Request) => Promise<Response>,
  release: () => Promise<void> = () => Promise.resolve(),
): BenchServer {
  const spawnedAt = performance.now();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const listeningAt = performance.now();
  let closing: Promise<void> | undefined;
  return {
    mcpUrl: `http://127.0.0.1:${server.addr.port}/mcp`,
    spawnedAt,
    listeningAt,
    // This process's figures would include the clients'.
    memory: () => Promise.resolve(undefined),
    cpuTime: () => Promise.resolve(undefined),
    close: () =>
      closing ??= (async () => {
        await server.shutdown();
        await release();
      })(),
  };
}

/** The floor, served in this process. */
export function serveFloor(): BenchServer {
  return serveInProcess(createFloorHandler().fetch);
}

/** Options of {@linkcode servePrioryInProcess}. */
export interface InProcessPrioryOptions {
  /** The upstream (`GW2_API_BASE`): a fake the bench serves. */
  readonly gw2ApiBase: string;
  /** The KV of this instance; several instances may share one, as on Deno Deploy. */
  readonly kv: Deno.Kv;
  /** The clock of its cache and deadlines; a clock running ahead makes cached entries older. */
  readonly clock?: Clock;
  /** The bearer token its guard expects. */
  readonly token: string;
}

/**
 * Priory's request handler — what `main.ts` serves (recipe lookups through the catalogue
 * included), without its background jobs — in this process over real HTTP to `gw2ApiBase`: for
 * measuring one call alone, with no startup warm-up racing it (the cold ranking). Close it when
 * done; the KV stays the caller's.
 */
export function servePrioryInProcess(options: InProcessPrioryOptions): BenchServer {
  const clock = options.clock ?? systemClock;
  const names = new NameIndex({
    kv: options.kv,
    namespace: options.gw2ApiBase,
    log: silentLogger,
    clock,
  });
  // Recipe lookups from the catalogue (filled on demand: no crawl runs here), as in main.ts.
  const recipes = new RecipeCatalogue({
    store: new RecipeStore({ kv: options.kv, namespace: options.gw2ApiBase }),
    clock,
    log: silentLogger,
  });
  const gw2: InstrumentedGw2Client = createGw2Client({
    baseUrl: options.gw2ApiBase,
    kv: options.kv,
    clock,
    log: silentLogger,
    rate: { burst: 300, perSec: 5 },
    onItemsFetched: (items, lang) => names.record(items, lang),
    recipeIndex: catalogueRecipeIndex(recipes, lazyPages(() => gw2)),
  });
  const handler = createHandler({
    log: silentLogger,
    gw2,
    names,
    clock,
    config: { authToken: options.token, allowedOrigins: [], allowedHosts: undefined },
  });
  return serveInProcess(handler, () => handler.close());
}
