/**
 * The choice among several records that make one item, exactly as `CONTRACT.md` ("Price
 * semantics") names it, and the walk of every legendary's tree under that choice. Pure: the
 * generator `scripts/curate_legendaries.ts` reads the files (`sources.ts`) and hands the records
 * in; `tests/data/selection_test.ts` checks the rule on small hand-made cases.
 *
 * The rule, the first that applies:
 * 1. an official recipe (the API serves it; the curated data carries none for that item);
 * 2. a merchant offer paid only in currencies: the least coin per unit, then the fewest
 *    ingredients, then the first in the source's order;
 * 3. a Mystic Forge recipe that does not consume its own output (a material promotion never is a
 *    tree's way), the first in the source's order, output count as given;
 * 4. a merchant offer that also takes items, ordered as in (2).
 * Otherwise the item is a leaf.
 *
 * @module
 */

/** Currency id of coin (copper). */
export const COIN = 1;

/** One ingredient of a gw2efficiency record, as the source spells it. */
export interface SourceIngredient {
  readonly type: "Item" | "Currency";
  readonly id: number;
  readonly count: number;
}

/** A gw2efficiency Mystic Forge or merchant record (fields the curation reads). */
export interface SourceRecord {
  readonly name: string;
  readonly output_item_id: number;
  readonly output_item_count: number;
  readonly ingredients: readonly SourceIngredient[];
  readonly disciplines: readonly string[];
  readonly merchant?: { readonly name: string } | null | undefined;
}

/** Which of the contract's rules chose a curated record. */
export type CuratedRule = 2 | 3 | 4;

/** The record a tree uses for one item without an official recipe. */
export interface Choice {
  readonly rule: CuratedRule;
  readonly record: SourceRecord;
  /** The record's ingredients as the curation reads them ({@linkcode readIngredients}). */
  readonly ingredients: readonly SourceIngredient[];
}

/**
 * Item 34 does not exist; one merchant offer (Funerary Incense 86093) takes `{type: "Item", id:
 * 34, count: 100}`, and currency 34 is Trade Contract, which that merchant's other offers are
 * priced in. The curation reads it as the currency.
 */
export const ITEM_READ_AS_CURRENCY: ReadonlySet<number> = new Set([34]);

/**
 * A record's ingredients as the curation reads them, in source order: the phantom item 34 as
 * currency 34; an id listed twice (Amalgamated Gemstone's first forge record lists 3 × 24514
 * three times) merged at its first place with the counts summed; a count of 0 dropped (Brick of
 * Clay's offer lists 0 coin). None of these changes what the record costs.
 */
export function readIngredients(record: SourceRecord): SourceIngredient[] {
  const out: SourceIngredient[] = [];
  for (const raw of record.ingredients) {
    const ingredient: SourceIngredient = raw.type === "Item" && ITEM_READ_AS_CURRENCY.has(raw.id)
      ? { type: "Currency", id: raw.id, count: raw.count }
      : { type: raw.type, id: raw.id, count: raw.count };
    if (ingredient.count === 0) continue;
    const index = out.findIndex((held) =>
      held.type === ingredient.type && held.id === ingredient.id
    );
    const held = out[index];
    if (held === undefined) out.push(ingredient);
    else out[index] = { ...held, count: held.count + ingredient.count };
  }
  return out;
}

/** Whether every ingredient is a currency (no item to hand in). */
export function currencyOnly(record: SourceRecord): boolean {
  return readIngredients(record).every((ingredient) => ingredient.type === "Currency");
}

/** Whether a forge record consumes its own output (a material promotion). */
export function isPromotion(record: SourceRecord): boolean {
  return record.ingredients.some((ingredient) =>
    ingredient.type === "Item" && ingredient.id === record.output_item_id
  );
}

function coin(record: SourceRecord): number {
  return readIngredients(record)
    .filter((ingredient) => ingredient.type === "Currency" && ingredient.id === COIN)
    .reduce((sum, ingredient) => sum + ingredient.count, 0);
}

/**
 * Orders merchant offers as rule (2) says: least coin per unit (compared exactly, as cross
 * products), then fewest ingredients (as the source lists them), then source order.
 */
function bestOffer(offers: readonly SourceRecord[]): SourceRecord | undefined {
  let best: SourceRecord | undefined;
  for (const offer of offers) {
    if (best === undefined) {
      best = offer;
      continue;
    }
    const byCoin = coin(offer) * best.output_item_count - coin(best) * offer.output_item_count;
    const byCount = offer.ingredients.length - best.ingredients.length;
    if (byCoin < 0 || (byCoin === 0 && byCount < 0)) best = offer;
  }
  return best;
}

/**
 * The record a tree uses for an item the API has no recipe for, by rules (2)–(4), or
 * `undefined` for a leaf. `forge` and `offers` are the item's records in the source's order.
 */
export function chooseRecord(
  forge: readonly SourceRecord[],
  offers: readonly SourceRecord[],
): Choice | undefined {
  const choice = (rule: CuratedRule, record: SourceRecord | undefined): Choice | undefined =>
    record === undefined ? undefined : { rule, record, ingredients: readIngredients(record) };
  return choice(2, bestOffer(offers.filter(currencyOnly))) ??
    choice(3, forge.find((record) => !isPromotion(record))) ??
    choice(4, bestOffer(offers.filter((offer) => !currencyOnly(offer))));
}

/** How one item of a tree is made. */
export type Way =
  | { readonly kind: "official"; readonly recipeId: number; readonly itemIds: readonly number[] }
  | { readonly kind: "curated"; readonly choice: Choice }
  | { readonly kind: "leaf" };

/** Everything that makes items, by output id. */
export interface Candidates {
  /** Official recipe ids and their item ingredients, by output (any order; the lowest id wins). */
  readonly official: ReadonlyMap<number, readonly { id: number; itemIds: readonly number[] }[]>;
  /** Mystic Forge records by output, in source order. */
  readonly forge: ReadonlyMap<number, readonly SourceRecord[]>;
  /** Merchant offers by output, in source order. */
  readonly offers: ReadonlyMap<number, readonly SourceRecord[]>;
}

/** The way a tree makes `id`: rule (1), else {@linkcode chooseRecord}, else a leaf. */
export function wayOf(id: number, candidates: Candidates): Way {
  const official = candidates.official.get(id) ?? [];
  if (official.length > 0) {
    const lowest = official.reduce((a, b) => (b.id < a.id ? b : a));
    return { kind: "official", recipeId: lowest.id, itemIds: lowest.itemIds };
  }
  const choice = chooseRecord(candidates.forge.get(id) ?? [], candidates.offers.get(id) ?? []);
  return choice === undefined ? { kind: "leaf" } : { kind: "curated", choice };
}

/** The item ids a way consumes. */
export function itemsOf(way: Way): readonly number[] {
  if (way.kind === "official") return way.itemIds;
  if (way.kind === "curated") {
    return way.choice.ingredients.filter((ingredient) => ingredient.type === "Item").map(({ id }) =>
      id
    );
  }
  return [];
}

/**
 * Every item the trees of `roots` reach under the rule, breadth first (roots first), with the
 * way each is made.
 */
export function walkTrees(roots: readonly number[], candidates: Candidates): Map<number, Way> {
  const ways = new Map<number, Way>();
  const queue = [...new Set(roots)];
  const seen = new Set(queue);
  for (let index = 0; index < queue.length; index++) {
    const id = queue[index];
    if (id === undefined) continue;
    const way = wayOf(id, candidates);
    ways.set(id, way);
    for (const next of itemsOf(way)) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return ways;
}

/**
 * Every cycle closed by `edges` (item → items it consumes), each as the path that closes it
 * (first node repeated at the end); an empty list proves the graph acyclic.
 */
export function findCycles(edges: ReadonlyMap<number, readonly number[]>): number[][] {
  const state = new Map<number, "open" | "done">();
  const cycles: number[][] = [];
  const path: number[] = [];
  const visit = (id: number): void => {
    state.set(id, "open");
    path.push(id);
    for (const next of edges.get(id) ?? []) {
      const seen = state.get(next);
      if (seen === "open") cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    path.pop();
    state.set(id, "done");
  };
  for (const id of edges.keys()) if (!state.has(id)) visit(id);
  return cycles;
}
