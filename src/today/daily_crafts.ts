/**
 * What one time-gated craft earns now, by `priory_craft_profit`'s figures (pure). The daily
 * crafts of `/v2/dailycrafting` (Lump of Mithrillium, Spool of Silk Weaving Thread, ...) are
 * account bound: they are sold as what they are refined into (a Lump into a Deldrimor Steel
 * Ingot). So a craft whose own output trades earns its own row's profit; one whose output does not
 * earns the best profit among the tradeable items one unit of it is refined into, by an official
 * recipe taking exactly one (the item named as `via`). Each figure is the crafting scan's exact
 * row (`CraftRows.exact`: sell - cost, the cost `priory_recipe_tree`'s `totalCraftCost`, the
 * time-gated item crafted in the tree), so it is the profit `priory_craft_profit` with
 * `includeTimeGated` lists for that item; a tree that cannot be priced whole earns nothing.
 *
 * @module
 */

import { type CraftGraph, INGREDIENT, SOURCE } from "../craft/graph.ts";
import type { CraftPass } from "../craft/pass.ts";
import type { CraftRows } from "../craft/rows.ts";

/** `/v2/dailycrafting` ids and the items they make (the API links them by no field). */
export const DAILY_CRAFT_ITEMS: ReadonlyMap<string, number> = new Map([
  ["charged_quartz_crystal", 43_772],
  ["glob_of_elder_spirit_residue", 46_744],
  ["lump_of_mithrilium", 46_742],
  ["spool_of_silk_weaving_thread", 46_740],
  ["spool_of_thick_elonian_cord", 46_745],
]);

/** What one craft of a time-gated item earns, and through which item when not itself. */
export interface DailyEarning {
  readonly profit: number;
  /** The tradeable item it is sold as (its recipe takes one), when the item itself does not trade. */
  readonly via?: number;
}

/** The crafting scan at the current sheet (a `CraftScan`): its graph, pass and exact rows. */
export interface ScanView {
  readonly graph: CraftGraph;
  readonly pass: CraftPass;
  readonly rows: Pick<CraftRows, "exact">;
}

/**
 * What one craft of `itemId` earns now at `scan`'s prices; `undefined` when nothing it makes can
 * be sold (no recipe, no buy order, a tree that cannot be priced whole).
 */
export function dailyEarning(scan: ScanView, itemId: number): DailyEarning | undefined {
  const { graph, pass } = scan;
  const node = graph.nodeOf.get(itemId);
  if (node === undefined) return undefined;
  if ((pass.buy[node] ?? 0) > 0) {
    const own = graph.recipeOf[node] ?? -1;
    const craft = own >= 0 && graph.source[own] === SOURCE.official ? priced(scan, own) : undefined;
    return craft === undefined ? undefined : { profit: craft.profit };
  }
  let best: DailyEarning | undefined;
  for (const r of productRecipes(scan, node)) {
    const craft = priced(scan, r);
    if (craft !== undefined && (best === undefined || craft.profit > best.profit)) {
      best = { profit: craft.profit, via: craft.outputId };
    }
  }
  return best;
}

/** The exact row of graph recipe `r`, unless its tree is partial. */
function priced(scan: ScanView, r: number) {
  const craft = scan.rows.exact(r);
  return craft.partial ? undefined : craft;
}

/**
 * Official recipes (those a tree uses for their output) taking exactly one unit of `node`, whose
 * output has a buy order: a pass over every recipe's ingredients (~50,000 for the real API).
 */
function productRecipes(scan: ScanView, node: number): number[] {
  const { graph, pass } = scan;
  const found: number[] = [];
  for (let r = 0; r < graph.outputNode.length; r++) {
    if (graph.source[r] !== SOURCE.official) continue;
    if ((pass.buy[graph.outputNode[r] ?? 0] ?? 0) === 0) continue;
    const end = graph.ingStart[r + 1] ?? 0;
    for (let at = graph.ingStart[r] ?? 0; at < end; at++) {
      if (
        graph.ingKind[at] === INGREDIENT.item && graph.ingRef[at] === node &&
        graph.ingCount[at] === 1
      ) {
        found.push(r);
        break;
      }
    }
  }
  return found;
}
