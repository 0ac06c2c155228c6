/**
 * The crafting scan of one process: the recipe graph, built once per recipe catalogue generation,
 * and the pass over it with its exact rows, once per market sheet - so every `priory_craft_profit`
 * call at the same sheet reuses them, whatever its filters. The catalogue is filled on demand
 * (every `/v2/recipes` page, over the interactive client, on a bound of its own so a call that
 * gives up leaves it going) when no complete one is loaded. Created once by `main.ts`, handed to
 * the tools as a service.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { type Deadline, startDeadline, unlessAborted } from "../async/deadline.ts";
import type { CatalogueRecipes, RecipeCatalogue } from "../catalogue/recipe_catalogue.ts";
import type { RecipePages } from "../catalogue/recipe_lookup.ts";
import { CURATED_RECIPES, type CuratedRecipe } from "../data/curated_recipes.ts";
import type { Logger } from "../log.ts";
import type { MarketSheet } from "../market/sheet.ts";
import { buildCraftGraph, type CraftGraph } from "./graph.ts";
import { type CraftPass, runPass } from "./pass.ts";
import { CraftRows } from "./rows.ts";

/** How long an on-demand catalogue fill may read, whoever waits for it. */
export const CATALOGUE_FILL_MS = 60_000;

/** Why the scan has no recipes to work on. */
export class CraftCatalogueError extends Error {
  /** `off`: the server runs without the recipe catalogue; `pending`: still being read; `failed`. */
  readonly reason: "off" | "pending" | "failed";
  /** @param reason why */
  constructor(reason: "off" | "pending" | "failed") {
    super(`The recipe catalogue is not available: ${reason}`);
    this.name = "CraftCatalogueError";
    this.reason = reason;
  }
}

/** The scan at one sheet: the graph, the pass, and its exact rows. */
export interface CraftScan {
  readonly graph: CraftGraph;
  readonly pass: CraftPass;
  readonly rows: CraftRows;
}

/** Options of {@linkcode CraftScanner}. */
export interface CraftScannerOptions {
  /** The recipe catalogue; absent when the server runs without it (`PRIORY_CATALOGUE=off`). */
  readonly catalogue: Pick<RecipeCatalogue, "all" | "fill"> | undefined;
  /** The interactive client's recipe pages, for an on-demand fill. */
  readonly pages: RecipePages;
  readonly clock: Clock;
  readonly log: Logger;
  /** The Mystic Forge and vendor records. @default CURATED_RECIPES */
  readonly curated?: ReadonlyMap<number, CuratedRecipe>;
}

/** The crafting scan of one process. */
export class CraftScanner {
  readonly #options: CraftScannerOptions;
  #graph: CraftGraph | undefined;
  #scan: CraftScan | undefined;

  /** @param options the catalogue, its pages, a clock and a logger */
  constructor(options: CraftScannerOptions) {
    this.#options = options;
  }

  /** The clock the scan's waits run on. */
  get clock(): Clock {
    return this.#options.clock;
  }

  /**
   * Every recipe of the catalogue, filled first when none is usable; waits for a fill until
   * `wait` passes.
   *
   * @throws {CraftCatalogueError} off, still being read when `wait` passes, or failed
   */
  async recipes(wait: Deadline): Promise<CatalogueRecipes> {
    const { catalogue, clock, pages } = this.#options;
    if (catalogue === undefined) throw new CraftCatalogueError("off");
    const work = (async () => {
      // A loaded catalogue answers at once; a fill in flight (the warm-up's) is joined and helped.
      const bound = startDeadline(clock, CATALOGUE_FILL_MS);
      try {
        await catalogue.fill((page, size) => pages.recipesPage(page, size, bound));
      } finally {
        bound[Symbol.dispose]();
      }
      return await catalogue.all();
    })();
    const done = await unlessAborted(work, wait.signal);
    if (done === undefined) throw new CraftCatalogueError("pending");
    if (done.value === undefined) throw new CraftCatalogueError("failed");
    return done.value;
  }

  /**
   * The scan of `recipes` at `sheet`'s prices: the graph kept per catalogue generation, the pass
   * and its rows per sheet.
   */
  scan(recipes: CatalogueRecipes, sheet: MarketSheet): CraftScan {
    const current = this.#scan;
    if (
      current?.graph.generation === recipes.generation && current.pass.takenAt === sheet.takenAt
    ) {
      return current;
    }
    const started = performance.now();
    let graph = this.#graph;
    if (graph?.generation !== recipes.generation) {
      graph = buildCraftGraph(recipes, this.#options.curated ?? CURATED_RECIPES);
      this.#graph = graph;
    }
    const pass = runPass(graph, sheet);
    const scan = { graph, pass, rows: new CraftRows(graph, pass) };
    this.#scan = scan;
    this.#options.log.debug("craft pass", {
      recipes: recipes.count,
      candidates: pass.candidates.length,
      ms: Math.round(performance.now() - started),
    });
    return scan;
  }
}
