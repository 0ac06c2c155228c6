/**
 * The priced buy-or-craft tree, computed without I/O: from resolved recipes (official and
 * curated), one price table and optionally the player's owned counts, to a tree of decisions and its
 * summary. The arithmetic is `@gw2efficiency/recipe-calculation`'s `cheapestTree`, used as is
 * over a tree nested by `@gw2efficiency/recipe-nesting`, so on official recipes every figure is
 * the library's; this module prepares the library's input (one recipe per item, reachable from
 * the root, cycles cut) and reads its output into our own node type.
 *
 * Price semantics (the contract's): buying costs the lowest sell listing; crafting costs the sum
 * of its ingredients' chosen costs, in whole recipe runs; coin paid to a vendor is copper; other
 * currencies are totalled, never converted; items that can be neither bought nor crafted are
 * marked unavailable and add nothing, which makes the total partial.
 *
 * One rule is ours on top of the library's (the contract's "never make a craft path look
 * cheap"): the library counts an item it cannot price as 0 in the buy-or-craft choice, so a
 * precursor whose official recipe takes account-bound collection items would be "crafted" for
 * almost nothing. A craft path that uses something with no price - an item that can be neither
 * bought, crafted nor taken from the holdings, a currency the library has no estimate for, or a
 * guild upgrade (which the library drops) - is not a price: the nearest buyable item above it on
 * the path (never the root) is bought instead, through `cheapestTree`'s own `forceBuyItems`,
 * repeated until no crafted path uses such a thing.
 * Without such paths (official recipes of tradeable materials) the figures are `cheapestTree`'s.
 *
 * @module
 */

import { cheapestTree } from "@gw2efficiency/recipe-calculation";
// Not re-exported by the package's index: the estimates its buy-or-craft choice uses for currencies.
import { CURRENCY_DECISION_PRICES } from "@gw2efficiency/recipe-calculation/dist/src/static/currencyDecisionPrices.js";
import { nestRecipeByOutputId } from "@gw2efficiency/recipe-nesting";
import { COIN_ID, type CuratedSource } from "../data/curated_recipes.ts";
import { netSellUnit } from "../market/trading_post.ts";

/** Where a recipe comes from: the GW2 API, or this project's curated data. */
export type RecipeSource = "official" | CuratedSource;

/** One ingredient; `type` is `Item`, `Currency` or `GuildUpgrade`. */
export interface TreeIngredient {
  readonly type: string;
  readonly id: number;
  readonly count: number;
}

/** The recipe the tree uses for one item. */
export interface TreeRecipe {
  readonly outputId: number;
  /** Items per run; may be fractional for an expected Mystic Forge yield (Mystic Clover 0.31). */
  readonly outputCount: number;
  readonly source: RecipeSource;
  /** The `/v2/recipes` id, for official recipes. */
  readonly recipeId?: number;
  readonly ingredients: readonly TreeIngredient[];
  /** The vendor selling it, for vendor purchases (the curated record's `merchant`). */
  readonly merchant?: string;
}

/** Trading Post unit prices in copper; 0 when that side of the book is empty. */
export interface TreePrice {
  /** Highest buy order. */
  readonly buy: number;
  /** Lowest sell listing: what buying one costs. */
  readonly sell: number;
}

/** What a node of the plan does. */
export type NodeAction =
  /** Made from its `children` (an official recipe, the Mystic Forge or a vendor). */
  | "craft"
  /** Bought on the Trading Post. */
  | "buy"
  /** Taken entirely from the player's holdings. */
  | "owned"
  /** Neither buyable nor craftable (account-bound gifts): no cost known. */
  | "unavailable"
  /** A currency paid to a vendor. */
  | "pay";

/** One node of the plan. Children exist only on crafted nodes. */
export interface PricedNode {
  readonly kind: "item" | "currency";
  readonly id: number;
  /** Units this node produces or pays (whole recipe runs, so possibly more than needed). */
  readonly quantity: number;
  /** Units taken from the player's holdings (0 without them). */
  readonly owned: number;
  readonly action: NodeAction;
  /** Copper this node adds to the total: absent when unavailable or a non-coin currency. */
  readonly cost?: number;
  /** Copper to buy the used units instead; on crafted nodes that are buyable. */
  readonly buyCost?: number;
  /**
   * Copper to craft instead; on bought nodes that have a recipe whose path has a price (absent
   * when the node is bought because its craft needs something unpriced).
   */
  readonly craftCost?: number;
  /** Recipe runs, on crafted nodes. */
  readonly runs?: number;
  /** The recipe's source, on crafted nodes. */
  readonly source?: RecipeSource;
  readonly children: readonly PricedNode[];
}

/** The totals of a plan. */
export interface TreeSummary {
  readonly rootId: number;
  /** Units asked for. */
  readonly quantity: number;
  /** Copper the plan costs: bought items and coin, not unavailable items or other currencies. */
  readonly totalCraftCost: number;
  /** Copper to buy `quantity` of the root instead; `null` without a sell listing. */
  readonly rootBuyPrice: number | null;
  /** Copper from selling `quantity` to the best buy order after the 15 % fee; `null` without one. */
  readonly netSell: number | null;
  /** `netSell - totalCraftCost`; `null` without `netSell`. */
  readonly profit: number | null;
  /** Items the plan needs that can be neither bought nor crafted, in tree order. */
  readonly unavailableIds: readonly number[];
  /** Guild upgrades the plan's recipes need (never priced; none in legendary trees). */
  readonly guildUpgradeIds: readonly number[];
  /** Non-coin currencies the plan pays, summed per currency, in tree order. */
  readonly currencies: readonly { readonly id: number; readonly count: number }[];
  /** Whether some cost is missing from `totalCraftCost` (unavailable items, guild upgrades). */
  readonly partial: boolean;
}

/** A priced tree: the plan and its summary. */
export interface PricedTree {
  readonly root: PricedNode;
  readonly summary: TreeSummary;
}

/**
 * Owned item counts by item id, used before buying or crafting (never for the root): the
 * `counts` of the account's `Holdings` (`src/account/tally.ts`).
 */
export type OwnedCounts = ReadonlyMap<number, number>;

/** The root has no recipe, official or curated: there is no tree to price. */
export class NotCraftableError extends Error {
  readonly itemId: number;
  /** The item's name, when known. */
  readonly itemName: string | undefined;
  /** @param itemId the root; @param itemName its name, when known */
  constructor(itemId: number, itemName?: string) {
    super(`Item ${itemId} has no recipe to price`);
    this.name = "NotCraftableError";
    this.itemId = itemId;
    this.itemName = itemName;
  }
}

/** What selling `quantity` units instantly yields: {@linkcode netSellUnit} per unit. */
export function netSellValue(buy: number, quantity: number): number {
  return netSellUnit(buy) * quantity;
}

type LibraryRecipe = Parameters<typeof nestRecipeByOutputId>[0][number];
type LibraryNode = ReturnType<typeof cheapestTree>;

/**
 * Prices the tree of `rootId`: crafts `quantity` of the root (always crafted, in whole runs),
 * choosing per ingredient the cheaper of buying and crafting, exactly as `cheapestTree`.
 *
 * @example
 * ```ts
 * const { summary } = priceRecipeTree(resolved.recipes, 30703, 1, prices);
 * summary.totalCraftCost; // copper
 * ```
 * @param recipes one recipe per craftable item id (see `resolveRecipes`)
 * @param rootId the item to craft
 * @param quantity units to craft
 * @param prices unit prices by item id; an item absent or with no sell listing cannot be bought
 * @param owned owned counts to use before buying or crafting (`useAccount`; none by default)
 * @throws {NotCraftableError} when `rootId` has no recipe
 */
export function priceRecipeTree(
  recipes: ReadonlyMap<number, TreeRecipe>,
  rootId: number,
  quantity: number,
  prices: ReadonlyMap<number, TreePrice>,
  owned: OwnedCounts = new Map(),
): PricedTree {
  const reachable = reachableRecipes(recipes, rootId);
  const nested = nestRecipeByOutputId(reachable.map(toLibraryRecipe), rootId);
  if (nested === undefined) throw new NotCraftableError(rootId);
  const sellPrices: Record<number, number> = {};
  for (const [id, price] of prices) if (price.sell > 0) sellPrices[id] = price.sell;
  // Only the tree's own ids: the library copies the whole object on every pass, and a
  // player's holdings run to thousands of ids.
  const available: Record<number, number> = {};
  for (const recipe of reachable) {
    for (const ingredient of recipe.ingredients) {
      const count = ingredient.type === "Item" ? owned.get(ingredient.id) : undefined;
      if (count !== undefined) available[ingredient.id] = count;
    }
  }
  // The rule of the module notes, to a fixpoint: each pass forces at least one more id, so it
  // ends (in one pass when no crafted path needs anything unpriced).
  const forced: number[] = [];
  let priced = cheapestTree(quantity, nested, sellPrices, available);
  for (;;) {
    const more = unpricedPathOwners(priced, recipes).filter((id) => !forced.includes(id));
    if (more.length === 0) break;
    forced.push(...more);
    priced = cheapestTree(quantity, nested, sellPrices, available, forced);
  }
  const root = toNode(priced, recipes, new Set(forced));
  return {
    root,
    summary: summarise(root, rootId, quantity, prices.get(rootId), recipes),
  };
}

/**
 * The items to buy instead of crafting: for every used leaf of a crafted path that has no price
 * - an item not bought, not crafted and not covered by the holdings, a non-coin currency the
 * library has no estimate for (it counts as 0 in the choice), or a guild upgrade (the library
 * drops it from the tree) - the nearest buyable crafted item above it, never the root. A leaf
 * under no buyable item (a gift of the root itself) forces nothing: the tree is then partial, as
 * before.
 */
function unpricedPathOwners(
  root: LibraryNode,
  recipes: ReadonlyMap<number, TreeRecipe>,
): number[] {
  const owners = new Set<number>();
  const visit = (node: LibraryNode, owner: number | undefined) => {
    for (const child of node.components ?? []) {
      if (child.usedQuantity === 0) continue;
      if (child.type === "Currency") {
        if (child.id !== COIN_ID && CURRENCY_DECISION_PRICES[child.id] === undefined) {
          if (owner !== undefined) owners.add(owner);
        }
        continue;
      }
      if (child.craft && (child.components ?? []).length > 0) {
        const above = child.buyPrice === false ? owner : child.id;
        if (above !== undefined && needsGuildUpgrade(recipes, child.id)) owners.add(above);
        visit(child, above);
      } else if (child.buyPrice === false && owner !== undefined) {
        owners.add(owner);
      }
    }
  };
  visit(root, undefined);
  return [...owners];
}

/** Whether the recipe of `id` takes a guild upgrade: no price, and dropped by the library. */
function needsGuildUpgrade(recipes: ReadonlyMap<number, TreeRecipe>, id: number): boolean {
  return recipes.get(id)?.ingredients.some((ingredient) => ingredient.type === "GuildUpgrade") ??
    false;
}

/**
 * The recipes reachable from `rootId`, each once, in depth-first order, with cycles refused: a
 * recipe with an ingredient that is already being made further up the same path (A needs B, B
 * is made from A) is dropped, so that ingredient becomes a leaf, bought or unavailable.
 */
export function reachableRecipes(
  recipes: ReadonlyMap<number, TreeRecipe>,
  rootId: number,
): TreeRecipe[] {
  const kept = new Map<number, TreeRecipe>();
  const onPath = new Set<number>();
  const visited = new Set<number>();
  const visit = (id: number) => {
    const recipe = recipes.get(id);
    if (recipe === undefined || visited.has(id)) return;
    visited.add(id);
    onPath.add(id);
    let closesCycle = false;
    for (const ingredient of recipe.ingredients) {
      if (ingredient.type !== "Item") continue;
      if (onPath.has(ingredient.id)) closesCycle = true;
      else visit(ingredient.id);
    }
    onPath.delete(id);
    if (!closesCycle) kept.set(id, recipe);
  };
  visit(rootId);
  return [...kept.values()];
}

/** The library's recipe shape (the 2022-03-09 API schema plus its own fields). */
function toLibraryRecipe(recipe: TreeRecipe): LibraryRecipe {
  return {
    id: recipe.recipeId ?? 0,
    type: recipe.source,
    output_item_id: recipe.outputId,
    output_item_count: recipe.outputCount,
    disciplines: [],
    flags: [],
    // The library's type names the three ingredient kinds; others are dropped by it anyway.
    ingredients: recipe.ingredients.map((ingredient) => ({
      type: ingredient.type === "Currency" || ingredient.type === "GuildUpgrade"
        ? ingredient.type
        : "Item",
      id: ingredient.id,
      count: ingredient.count,
    })),
    chat_link: "",
    multipleRecipeCount: 1,
  };
}

/**
 * Reads the library's node into ours, following only what the plan uses. A bought node keeps a
 * `craftCost` only when its craft path is wholly priced in coin: one bought by the rule
 * (`forced`) has no price, and one whose path pays non-coin currencies (a vendor's Guild
 * Commendations, say) or needs an unavailable item or a guild upgrade has a coin figure that is
 * not its price - written as the alternative, it would read as "crafting is cheaper" when it is
 * not.
 */
function toNode(
  node: LibraryNode,
  recipes: ReadonlyMap<number, TreeRecipe>,
  forced: ReadonlySet<number>,
): PricedNode {
  const owned = node.totalQuantity - node.usedQuantity;
  const base = { id: node.id, quantity: node.totalQuantity, owned };
  if (node.type === "Currency") {
    return {
      kind: "currency",
      ...base,
      action: "pay",
      ...(node.id === COIN_ID ? { cost: node.usedQuantity } : {}),
      children: [],
    };
  }
  const buyPrice = node.buyPrice === false ? undefined : node.buyPrice;
  const components = node.components ?? [];
  if (node.craft && components.length > 0) {
    return {
      kind: "item",
      ...base,
      action: "craft",
      cost: node.craftPrice ?? 0,
      ...(buyPrice === undefined ? {} : { buyCost: buyPrice }),
      runs: Math.ceil(node.usedQuantity / node.output),
      source: recipes.get(node.id)?.source ?? "official",
      children: components.map((component) => toNode(component, recipes, forced)),
    };
  }
  if (node.usedQuantity === 0) return { kind: "item", ...base, action: "owned", children: [] };
  if (buyPrice === undefined) return { kind: "item", ...base, action: "unavailable", children: [] };
  return {
    kind: "item",
    ...base,
    action: "buy",
    cost: buyPrice,
    ...(components.length > 0 && node.craftPrice !== undefined && !forced.has(node.id) &&
        craftInCoin(node, recipes)
      ? { craftCost: node.craftPrice }
      : {}),
    children: [],
  };
}

/**
 * Whether a component of a craft path is priced in coin as the path would use it: coin itself,
 * nothing used (owned), bought at a price, or crafted, without a guild upgrade, from such
 * components.
 */
function pricedInCoin(node: LibraryNode, recipes: ReadonlyMap<number, TreeRecipe>): boolean {
  if (node.type === "Currency") return node.id === COIN_ID || node.usedQuantity === 0;
  if (node.usedQuantity === 0) return true;
  const components = node.components ?? [];
  if (node.craft && components.length > 0) return craftInCoin(node, recipes);
  return node.buyPrice !== false;
}

/** Whether crafting `node` is priced in coin: no guild upgrade, every component in coin. */
function craftInCoin(node: LibraryNode, recipes: ReadonlyMap<number, TreeRecipe>): boolean {
  return !needsGuildUpgrade(recipes, node.id) &&
    (node.components ?? []).every((component) => pricedInCoin(component, recipes));
}

function summarise(
  root: PricedNode,
  rootId: number,
  quantity: number,
  rootPrice: TreePrice | undefined,
  recipes: ReadonlyMap<number, TreeRecipe>,
): TreeSummary {
  const unavailable = new Set<number>();
  const guildUpgrades = new Set<number>();
  const currencies = new Map<number, number>();
  const walk = (node: PricedNode) => {
    if (node.action === "unavailable") unavailable.add(node.id);
    if (node.kind === "currency" && node.id !== COIN_ID) {
      currencies.set(node.id, (currencies.get(node.id) ?? 0) + node.quantity);
    }
    if (node.action === "craft") {
      // The library drops guild-upgrade ingredients; name them rather than price them at 0.
      for (const ingredient of recipes.get(node.id)?.ingredients ?? []) {
        if (ingredient.type === "GuildUpgrade") guildUpgrades.add(ingredient.id);
      }
    }
    node.children.forEach(walk);
  };
  walk(root);
  const totalCraftCost = root.cost ?? 0;
  const rootBuyPrice = rootPrice !== undefined && rootPrice.sell > 0
    ? rootPrice.sell * quantity
    : null;
  const netSell = rootPrice !== undefined && rootPrice.buy > 0
    ? netSellValue(rootPrice.buy, quantity)
    : null;
  return {
    rootId,
    quantity,
    totalCraftCost,
    rootBuyPrice,
    netSell,
    profit: netSell === null ? null : netSell - totalCraftCost,
    unavailableIds: [...unavailable],
    guildUpgradeIds: [...guildUpgrades],
    currencies: [...currencies].map(([id, count]) => ({ id, count })),
    partial: unavailable.size > 0 || guildUpgrades.size > 0,
  };
}
