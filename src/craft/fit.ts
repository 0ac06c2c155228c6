/**
 * What an account can craft now (`useAccount`): a recipe it has learned (`/v2/account/recipes`)
 * or one learned automatically (`AutoLearned`), and a character with one of the recipe's
 * disciplines at or above its minimum rating (`/v2/characters`' `crafting`). A recipe with no
 * flag (found by discovery) counts as learned only when the account's list names it, as a sheet's
 * does. Pure.
 *
 * @module
 */

import type { Crafting } from "../gw2/schemas.ts";
import { type CraftGraph, disciplineBit, FLAG } from "./graph.ts";

/** The account's crafting: what it has learned, and its best rating per discipline. */
export interface AccountCrafting {
  readonly learned: ReadonlySet<number>;
  /** Discipline -> the best rating among the account's characters. */
  readonly ratings: ReadonlyMap<string, number>;
}

/**
 * The account's crafting from its learned recipe ids and its characters' disciplines (active or
 * not: a character switches at any crafting station).
 */
export function accountCrafting(
  learned: readonly number[],
  characters: readonly { readonly crafting?: readonly Crafting[] | undefined }[],
): AccountCrafting {
  const ratings = new Map<string, number>();
  for (const character of characters) {
    for (const { discipline, rating } of character.crafting ?? []) {
      ratings.set(discipline, Math.max(rating, ratings.get(discipline) ?? 0));
    }
  }
  return { learned: new Set(learned), ratings };
}

/**
 * The discipline the account crafts graph recipe `r` with (its highest rating among the
 * recipe's disciplines that reach the minimum - among `only`'s bits, when given), or `undefined`
 * when it cannot craft it now.
 */
export function craftsWith(
  account: AccountCrafting,
  graph: CraftGraph,
  r: number,
  only = 0,
): string | undefined {
  const flags = graph.flags[r] ?? 0;
  const known = (flags & FLAG.autoLearned) !== 0 || account.learned.has(graph.recipeId[r] ?? 0);
  if (!known) return undefined;
  const minimum = graph.minRating[r] ?? 0;
  const bits = (graph.disciplines[r] ?? 0) & (only === 0 ? ~0 : only);
  let best: { discipline: string; rating: number } | undefined;
  for (const [discipline, rating] of account.ratings) {
    if ((bits & disciplineBit(discipline)) === 0 || rating < minimum) continue;
    if (best === undefined || rating > best.rating) best = { discipline, rating };
  }
  return best?.discipline;
}

/** Which recipes one call keeps, and the discipline each row shows. */
export interface CraftFit {
  /** Whether recipe `r` is of the discipline asked for and, with an account, one it crafts. */
  readonly accepts: (r: number) => boolean;
  /**
   * The discipline a row shows: the one asked for, else the one the account crafts it with;
   * `undefined` for the recipe's first.
   */
  readonly discipline: (r: number) => string | undefined;
}

/**
 * The fit of one call: `discipline` (a filter) and `account` (`useAccount`). With both, the
 * account must craft the recipe with that discipline, not with another of the recipe's.
 */
export function craftFilter(
  graph: CraftGraph,
  options: {
    readonly discipline?: string | undefined;
    readonly account?: AccountCrafting | undefined;
  },
): CraftFit {
  const { account, discipline } = options;
  const wanted = discipline === undefined ? 0 : disciplineBit(discipline);
  const crafter = (r: number) =>
    account === undefined ? undefined : craftsWith(account, graph, r, wanted);
  return {
    accepts: (r) =>
      (wanted === 0 || ((graph.disciplines[r] ?? 0) & wanted) !== 0) &&
      (account === undefined || crafter(r) !== undefined),
    discipline: (r) => discipline ?? crafter(r),
  };
}
