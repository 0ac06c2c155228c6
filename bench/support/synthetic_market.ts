/**
 * A synthetic recipe catalogue and Trading Post at the real API's scale, for the crafting scan's
 * benchmark: ~13,000 recipes in four tiers (refinements of raw materials, components, finished
 * items; some making 5) over ~17,000 items, and ~27,000 prices (the real Trading Post: every
 * recipe's items plus as many unrelated), priced so that a crafted item sells for 0.6–1.6× what
 * it costs to make, as markets do. Deterministic (seeded).
 *
 * @module
 */

import type { CatalogueRecipe, Price } from "../../src/gw2/schemas.ts";
import { DISCIPLINES } from "../../src/gw2/schemas.ts";
import { seeded } from "../../tests/support/random.ts";

/** How big the synthetic market is. */
export const MARKET_SCALE = {
  raw: 4_000,
  refined: 1_500,
  components: 3_500,
  finished: 8_000,
  /** Tradeable items no recipe makes or uses. */
  unrelated: 10_000,
} as const;

/** The synthetic catalogue and market. */
export interface SyntheticMarket {
  readonly recipes: CatalogueRecipe[];
  readonly prices: Price[];
}

/** Builds the market. */
export function syntheticMarket(): SyntheticMarket {
  const random = seeded("synthetic-market");
  const cost = new Map<number, number>();
  const prices: Price[] = [];
  const recipes: CatalogueRecipe[] = [];
  let nextId = 1;
  const price = (id: number, value: number) => {
    const sell = Math.max(2, Math.round(value));
    const buy = Math.max(1, Math.floor(sell * (0.75 + random.next() * 0.22)));
    prices.push({
      id,
      whitelisted: false,
      buys: { quantity: random.int(10, 50_000), unit_price: buy },
      sells: { quantity: random.int(10, 50_000), unit_price: sell },
    });
  };
  const raw: number[] = [];
  for (let index = 0; index < MARKET_SCALE.raw; index++) {
    const id = nextId++;
    raw.push(id);
    const value = 10 * (500 ** random.next());
    cost.set(id, value);
    price(id, value);
  }
  const tier = (count: number, from: readonly number[][], sizes: readonly [number, number]) => {
    const made: number[] = [];
    for (let index = 0; index < count; index++) {
      const id = nextId++;
      made.push(id);
      const ingredients = new Map<number, number>();
      const parts = random.int(sizes[0], sizes[1]);
      for (let part = 0; part < parts; part++) {
        const pool = random.pick(from);
        ingredients.set(random.pick(pool), random.int(1, 5));
      }
      const outputCount = random.chance(0.05) ? 5 : 1;
      let total = 0;
      for (const [ingredient, n] of ingredients) total += n * (cost.get(ingredient) ?? 0);
      cost.set(id, total / outputCount);
      const flags = random.chance(0.4) ? ["AutoLearned"] : ["LearnedFromItem"];
      recipes.push({
        id: 100_000 + recipes.length,
        output_item_id: id,
        output_item_count: outputCount,
        disciplines: [random.pick(DISCIPLINES)],
        min_rating: random.int(0, 500),
        flags,
        ingredients: [...ingredients].map(([ingredient, n]) => ({
          type: "Item",
          id: ingredient,
          count: n,
        })),
      });
      if (random.chance(0.85)) price(id, (cost.get(id) ?? 0) * (0.6 + random.next()));
    }
    return made;
  };
  const refined = tier(MARKET_SCALE.refined, [raw], [1, 2]);
  const components = tier(MARKET_SCALE.components, [refined, raw], [1, 3]);
  tier(MARKET_SCALE.finished, [components, refined], [2, 4]);
  for (let index = 0; index < MARKET_SCALE.unrelated; index++) {
    price(nextId++, 10 * (1_000 ** random.next()));
  }
  return { recipes, prices };
}
