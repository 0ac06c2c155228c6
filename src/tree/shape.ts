/**
 * The compact form of a priced tree, as `priory_recipe_tree` returns it: every byte is read by
 * the agent, so names appear once (a dictionary), fields at their default are omitted, only
 * what the plan uses is expanded (a bought item's recipe is not), and a crafted subtree that
 * repeats an earlier one exactly is written once and then marked `rep`.
 *
 * A node: `id` (item) or `cur` (currency; `cur: 1` is coin, `q` copper); `q` units (omitted
 * when 1); `own` units taken from holdings; `cost` copper spent on it (omitted when 0, as on a
 * vendor purchase paid in karma); `buy` / `craft` the copper of the alternative not taken; `via`
 * `forge` (Mystic Forge) or `vendor` when crafted from curated data; `runs` recipe runs when not
 * `q`; `na: true` when it can be neither bought nor crafted; `rep: true` when its ingredients are
 * as at its first appearance; `c` the ingredients of a crafted node.
 *
 * @module
 */

import type { PricedNode, PricedTree, RecipeSource, TreeSummary } from "./pricing.ts";
import { type Staleness, staleness } from "../staleness.ts";

/**
 * A node of the compact tree; see the module documentation for each field. (Object types, not
 * interfaces, so they fit the loose output schema's index signature.)
 */
export type ShapedTreeNode = {
  readonly id?: number;
  readonly cur?: number;
  readonly q?: number;
  readonly own?: number;
  readonly cost?: number;
  readonly buy?: number;
  readonly craft?: number;
  readonly via?: "forge" | "vendor";
  readonly runs?: number;
  readonly na?: true;
  readonly rep?: true;
  readonly c?: ShapedTreeNode[];
};

/** A non-coin currency the plan pays. */
export interface ShapedCurrencyCost {
  readonly id: number;
  readonly name?: string;
  readonly count: number;
}

/** The summary fields the contract names, always present. */
type ContractSummaryField =
  | "rootId"
  | "quantity"
  | "totalCraftCost"
  | "rootBuyPrice"
  | "netSell"
  | "profit";

/** The summary: the contract's fields, then what makes the total partial (omitted when none). */
export type ShapedTreeSummary = Pick<TreeSummary, ContractSummaryField> & {
  /** Set when a cost is missing from `totalCraftCost`. */
  readonly partial?: true;
  readonly unavailable?: number[];
  readonly guildUpgrades?: number[];
  readonly currencies?: ShapedCurrencyCost[];
};

/** `priory_recipe_tree` structured result. */
export interface RecipeTreeResult extends Staleness {
  readonly summary: ShapedTreeSummary;
  /** Item names by id, for every item the tree and summary mention. */
  readonly names: Record<string, string>;
  readonly tree: ShapedTreeNode;
}

const VIA: Readonly<Record<RecipeSource, "forge" | "vendor" | undefined>> = {
  official: undefined,
  mystic_forge: "forge",
  vendor: "vendor",
};

/**
 * The compact result of a priced tree.
 *
 * @example
 * ```ts
 * const result = shapeRecipeTree(priced, resolved.names, resolved.currencyNames);
 * result.tree; // {id: 30703, cost: ..., via: "forge", c: [...]}
 * ```
 * @param tree the priced tree
 * @param names item names by id
 * @param currencyNames currency names by id
 * @param staleAgeMs the oldest stale read behind it, if any
 */
export function shapeRecipeTree(
  tree: PricedTree,
  names: ReadonlyMap<number, string>,
  currencyNames: ReadonlyMap<number, string>,
  staleAgeMs?: number,
): RecipeTreeResult {
  const root = withoutRepeats(shapeNode(tree.root), new Set());
  const { summary } = tree;
  const shapedSummary: ShapedTreeSummary = {
    rootId: summary.rootId,
    quantity: summary.quantity,
    totalCraftCost: summary.totalCraftCost,
    rootBuyPrice: summary.rootBuyPrice,
    netSell: summary.netSell,
    profit: summary.profit,
    ...(summary.partial ? { partial: true } : {}),
    ...(summary.unavailableIds.length > 0 ? { unavailable: [...summary.unavailableIds] } : {}),
    ...(summary.guildUpgradeIds.length > 0 ? { guildUpgrades: [...summary.guildUpgradeIds] } : {}),
    ...(summary.currencies.length > 0
      ? {
        currencies: summary.currencies.map(({ id, count }) => {
          const name = currencyNames.get(id);
          return name === undefined ? { id, count } : { id, name, count };
        }),
      }
      : {}),
  };
  return {
    summary: shapedSummary,
    names: nameDictionary(root, summary.rootId, names),
    tree: root,
    ...staleness(staleAgeMs),
  };
}

function shapeNode(node: PricedNode): ShapedTreeNode {
  const via = node.source === undefined ? undefined : VIA[node.source];
  return {
    ...(node.kind === "item" ? { id: node.id } : { cur: node.id }),
    ...(node.quantity === 1 ? {} : { q: node.quantity }),
    ...(node.owned === 0 ? {} : { own: node.owned }),
    ...(node.cost === undefined || node.cost === 0 || node.kind === "currency"
      ? {}
      : { cost: node.cost }),
    ...(node.buyCost === undefined ? {} : { buy: node.buyCost }),
    ...(node.craftCost === undefined ? {} : { craft: node.craftCost }),
    ...(via === undefined ? {} : { via }),
    ...(node.runs === undefined || node.runs === node.quantity ? {} : { runs: node.runs }),
    ...(node.action === "unavailable" ? { na: true } : {}),
    ...(node.action === "craft" ? { c: node.children.map(shapeNode) } : {}),
  };
}

/**
 * Writes each distinct crafted subtree once, in reading order: a later subtree identical to one
 * already written (same item, quantities, costs and ingredients) keeps its own line and loses
 * its ingredients.
 */
function withoutRepeats(node: ShapedTreeNode, written: Set<string>): ShapedTreeNode {
  if (node.c === undefined) return node;
  const key = JSON.stringify(node);
  if (written.has(key)) {
    const { c: _ingredients, ...line } = node;
    return { ...line, rep: true };
  }
  written.add(key);
  return { ...node, c: node.c.map((child) => withoutRepeats(child, written)) };
}

/** The names of the root and of every item written, keyed by id. */
function nameDictionary(
  root: ShapedTreeNode,
  rootId: number,
  names: ReadonlyMap<number, string>,
): Record<string, string> {
  const dictionary: Record<string, string> = {};
  const add = (id: number | undefined) => {
    const name = id === undefined ? undefined : names.get(id);
    if (id !== undefined && name !== undefined) dictionary[id] = name;
  };
  add(rootId);
  const walk = (node: ShapedTreeNode) => {
    add(node.id);
    node.c?.forEach(walk);
  };
  walk(root);
  return dictionary;
}
