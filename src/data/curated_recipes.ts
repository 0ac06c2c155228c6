/**
 * Recipes the GW2 API does not serve, owned by this project: for every item of every legendary's
 * tree that has no official recipe, the one Mystic Forge recipe or merchant offer a tree uses;
 * for every other item an official recipe of the whole market uses that a merchant sells for
 * currencies alone, that offer (`market`: Lump of Tin, 10 for 80 coin, in Bronze Ingot and
 * every tree and crafting scan row above it); with the names of the currencies those offers
 * take. The data is `curated_recipes.json`,
 * written by the generator `scripts/curate_legendaries.ts` (never by hand) and validated here
 * once, at load.
 *
 * Which record, where several make one item, is the contract's rule ("Price semantics"): an
 * official recipe first (the API serves it, so no item here has one), then (2) a merchant offer
 * paid only in currencies - least coin per unit, then fewest ingredients, then source order -
 * then (3) a Mystic Forge recipe that does not consume its own output, first in source order,
 * then (4) a merchant offer that also takes items, ordered as (2). Each record says which rule
 * chose it. Sources, commits, counts and the oddities met: `docs/curated-data.md`.
 *
 * Mystic Clover's output count is 0.31, gw2efficiency's expected yield per forge attempt, not an
 * integer: 77 clovers take ceil(77 / 0.31) = 249 attempts.
 *
 * @module
 */

import { z } from "zod";
import data from "./curated_recipes.json" with { type: "json" };

/** The currency id of coin (copper); coin costs are priced, other currencies are reported. */
export const COIN_ID = 1;

/** Where a curated recipe is performed. */
export type CuratedSource = "mystic_forge" | "vendor";

/** Which rule of the contract chose the record: (2) currency-only offer, (3) forge, (4) offer taking items. */
export type CuratedRule = 2 | 3 | 4;

/** One ingredient: an item, or a currency a vendor takes. */
export interface CuratedIngredient {
  readonly type: "Item" | "Currency";
  readonly id: number;
  readonly count: number;
}

/** A recipe the API lacks: a Mystic Forge combination or a vendor purchase. */
export interface CuratedRecipe {
  readonly outputId: number;
  /** The output's name as the source records it (the tree takes names from the API). */
  readonly name: string;
  /** Items produced per run; Mystic Clover's 0.31 is an expected yield. */
  readonly outputCount: number;
  readonly source: CuratedSource;
  /** The contract's rule that chose this record among the item's records. */
  readonly rule: CuratedRule;
  /** In the source's order, which is the order the tree lists them. */
  readonly ingredients: readonly CuratedIngredient[];
  /** The vendor selling it (vendor purchases; absent where the source names none). */
  readonly merchant?: string;
  /**
   * True for an offer of the market's other recipes (rule 2), of an item no legendary's tree
   * reaches: the warm-up leaves it out of the trees' items.
   */
  readonly market?: true;
}

const Id = z.number().int().positive();
const Count = z.number().positive();

const DataSchema = z.object({
  recipes: z.array(z.object({
    id: Id,
    name: z.string().min(1),
    count: Count,
    source: z.enum(["mystic_forge", "vendor"]),
    rule: z.union([z.literal(2), z.literal(3), z.literal(4)]),
    merchant: z.string().min(1).optional(),
    in: z.array(z.tuple([z.enum(["I", "C"]), Id, Count])).min(1),
    market: z.literal(true).optional(),
  })),
  currencies: z.array(z.object({ id: Id, name: z.string().min(1) })),
});

/** The validated data: recipes by output id, currency names by id. */
export interface CuratedData {
  readonly recipes: ReadonlyMap<number, CuratedRecipe>;
  readonly currencyNames: ReadonlyMap<number, string>;
}

/**
 * Validates the generator's output (shape, and what holds without the API: one record per
 * item, a name for every currency taken, a forge recipe only under rule 3 and an offer only
 * under rules 2 and 4, rule 2 paid in currencies alone, no record consuming its own output, no
 * cycle among the records) and builds the maps.
 *
 * @throws {Error} naming the first violation (a ZodError for a malformed shape)
 */
export function parseCuratedData(raw: unknown): CuratedData {
  const parsed = DataSchema.parse(raw);
  const currencyNames = new Map(parsed.currencies.map(({ id, name }) => [id, name]));
  const recipes = new Map<number, CuratedRecipe>();
  for (const row of parsed.recipes) {
    const where = `curated recipe for ${row.id} (${row.name})`;
    if (recipes.has(row.id)) throw new Error(`${where}: a second record for the item`);
    const ingredients = row.in.map(([kind, id, count]): CuratedIngredient => ({
      type: kind === "I" ? "Item" : "Currency",
      id,
      count,
    }));
    for (const ingredient of ingredients) {
      if (ingredient.type === "Currency" && !currencyNames.has(ingredient.id)) {
        throw new Error(`${where}: currency ${ingredient.id} has no name`);
      }
      if (ingredient.type === "Item" && ingredient.id === row.id) {
        throw new Error(`${where}: consumes its own output`);
      }
    }
    if ((row.source === "mystic_forge") !== (row.rule === 3)) {
      throw new Error(`${where}: rule ${row.rule} does not choose a ${row.source} record`);
    }
    if (row.rule === 2 && ingredients.some((ingredient) => ingredient.type === "Item")) {
      throw new Error(`${where}: a rule-2 offer is paid in currencies alone`);
    }
    if (row.market === true && row.rule !== 2) {
      throw new Error(`${where}: a market record is a rule-2 offer`);
    }
    recipes.set(row.id, {
      outputId: row.id,
      name: row.name,
      outputCount: row.count,
      source: row.source,
      rule: row.rule,
      ingredients,
      ...(row.merchant === undefined ? {} : { merchant: row.merchant }),
      ...(row.market === true ? { market: true } : {}),
    });
  }
  const cycle = findCycle(recipes);
  if (cycle !== undefined) {
    throw new Error(`curated recipes form a cycle: ${cycle.join(" \u2192 ")}`);
  }
  return { recipes, currencyNames };
}

/** One cycle among the records' item edges (as a path closing on its first id), if any. */
function findCycle(recipes: ReadonlyMap<number, CuratedRecipe>): number[] | undefined {
  const done = new Set<number>();
  const path: number[] = [];
  const visit = (id: number): number[] | undefined => {
    const open = path.indexOf(id);
    if (open >= 0) return [...path.slice(open), id];
    if (done.has(id)) return undefined;
    path.push(id);
    for (const ingredient of recipes.get(id)?.ingredients ?? []) {
      if (ingredient.type !== "Item") continue;
      const found = visit(ingredient.id);
      if (found !== undefined) return found;
    }
    path.pop();
    done.add(id);
    return undefined;
  };
  for (const id of recipes.keys()) {
    const found = visit(id);
    if (found !== undefined) return found;
  }
  return undefined;
}

const CURATED = parseCuratedData(data);

/**
 * Every curated recipe by output item id (one per item; no item has an official recipe): the
 * legendary trees' and the market's.
 */
export const CURATED_RECIPES: ReadonlyMap<number, CuratedRecipe> = CURATED.recipes;

/** Names of the currencies the curated recipes take, by currency id (Coin 1 included). */
export const CURRENCY_NAMES: ReadonlyMap<number, string> = CURATED.currencyNames;

/**
 * Every item id the legendary trees' curated recipes mention (outputs and item ingredients; the
 * market's offers left out), ascending: the items a legendary tree is certain to read, for
 * warming the cache.
 *
 * @example
 * ```ts
 * curatedTreeItemIds().includes(19675); // true: Mystic Clover
 * ```
 */
export function curatedTreeItemIds(): number[] {
  const ids = new Set<number>();
  for (const recipe of CURATED_RECIPES.values()) {
    if (recipe.market === true) continue;
    ids.add(recipe.outputId);
    for (const ingredient of recipe.ingredients) {
      if (ingredient.type === "Item") ids.add(ingredient.id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}
