/**
 * The legendary list: npm `gw2e-static-data` 0.5.47 (gw2efficiency, published 2025-10-04),
 * `build/legendaries.js`, pinned exactly in `deno.json`. Its 172 rows are validated once at load
 * and kept to the fields decisions depend on (skins and icons dropped).
 *
 * This project adds the two legendary upgrades the package does not list, the Legendary Rune
 * (91536) and the Legendary Sigil (91505), as type `upgrade` (`legendary_coverage.json`, written
 * by `scripts/curate_legendaries.ts`), so the list is every legendary a tree can make: 174 rows.
 * The same file names the legendaries without a tree and why (`LEGENDARIES_WITHOUT_TREE`).
 *
 * `generation` is this project's curation on top of the package's: weapons of generations 1-3
 * keep theirs; the package marks everything else -1 - armor, trinkets, backs, and the Janthir
 * Wilds spear Klobjarne Geirr (103815), which belongs to no numbered weapon generation - and we
 * publish that as `null` rather than a number that reads like a generation. The upgrades have
 * `null` too.
 *
 * @module
 */

import staticLegendaries from "gw2e-static-data/legendaries";
import { z } from "zod";
import coverage from "./legendary_coverage.json" with { type: "json" };

/** The package's categories, as it spells them, and ours for the rune and sigil. */
export const LEGENDARY_TYPES = ["weapon", "armor", "trinket", "back", "upgrade"] as const;

/** A legendary's category. */
export type LegendaryType = typeof LEGENDARY_TYPES[number];

/** A numbered weapon generation. */
export type Generation = 1 | 2 | 3;

/** One legendary. */
export interface Legendary {
  readonly id: number;
  readonly name: string;
  readonly type: LegendaryType;
  /** 1-3 for the weapon generations; `null` for anything outside them. */
  readonly generation: Generation | null;
  /** The precursor's item id, where the legendary has one (Eternity has none). */
  readonly precursorId?: number;
  /** Where it is earned: `PvE`, `WvW` or `PvP` (the rune and sigil: `PvE`). */
  readonly source: string;
}

const RowSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  type: z.enum(LEGENDARY_TYPES),
  generation: z.number().int(),
  precursorId: z.number().int().positive().nullish(),
  source: z.string(),
});

/**
 * The package is CommonJS with `exports.default = [...]`; depending on the runtime's interop the
 * default import is the array or the `{__esModule, default}` object.
 */
function unwrap(module: unknown): unknown {
  if (Array.isArray(module)) return module;
  if (typeof module === "object" && module !== null && "default" in module) return module.default;
  return module;
}

function toLegendary(row: z.infer<typeof RowSchema>): Legendary {
  const generation = row.generation === 1 || row.generation === 2 || row.generation === 3
    ? row.generation
    : null;
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    generation,
    ...(row.precursorId === null || row.precursorId === undefined
      ? {}
      : { precursorId: row.precursorId }),
    source: row.source,
  };
}

/** Why a legendary has no tree: a reward no record makes, or released after the data. */
export type NoTreeReason = "reward" | "after-data";

const CoverageSchema = z.object({
  upgrades: z.array(z.object({
    id: z.number().int().positive(),
    name: z.string(),
    type: z.literal("upgrade"),
    source: z.string(),
  })),
  withoutTree: z.array(z.object({
    id: z.number().int().positive(),
    reason: z.enum(["reward", "after-data"]),
  })),
  treeItems: z.array(z.number().int().positive()).min(1),
});

const COVERAGE = CoverageSchema.parse(coverage);

/**
 * Every legendary: the package's rows in its order (generation 1 weapons first), then the
 * Legendary Rune and Sigil.
 */
export const LEGENDARIES: readonly Legendary[] = Object.freeze([
  ...z.array(RowSchema).parse(unwrap(staticLegendaries)).map(toLegendary),
  ...COVERAGE.upgrades.map(({ id, name, type, source }): Legendary => ({
    id,
    name,
    type,
    generation: null,
    source,
  })),
]);

/**
 * The legendaries of {@linkcode LEGENDARIES} that have no tree, with the reason: `reward` (in
 * the game, made by no recipe, forge record or offer: Prismatic Champion's Regalia 95380) or
 * `after-data` (released after the data the curation was made from: 103815, 104857). Every other
 * legendary has a curated recipe (`CURATED_RECIPES`); `tests/data/coverage_test.ts` holds both.
 */
export const LEGENDARIES_WITHOUT_TREE: ReadonlyMap<number, NoTreeReason> = new Map(
  COVERAGE.withoutTree.map(({ id, reason }) => [id, reason]),
);

/**
 * Every item id the legendaries' trees reach in the curation's data, the legendaries and their
 * official-recipe parts included, ascending: what the warm-up reads first, before any recipe
 * walk (which then finds what upstream has changed since, if anything).
 */
export const TREE_ITEM_IDS: readonly number[] = Object.freeze([...COVERAGE.treeItems]);

/** A filter over {@linkcode LEGENDARIES}; an absent field matches everything. */
export interface LegendaryFilter {
  readonly generation?: number | undefined;
  readonly type?: LegendaryType | undefined;
}

/**
 * The legendaries matching `filter`, in the list's order.
 *
 * @example
 * ```ts
 * findLegendaries({ generation: 1 }).length; // 21
 * ```
 */
export function findLegendaries(filter: LegendaryFilter = {}): Legendary[] {
  return LEGENDARIES.filter((legendary) =>
    (filter.generation === undefined || legendary.generation === filter.generation) &&
    (filter.type === undefined || legendary.type === filter.type)
  );
}
