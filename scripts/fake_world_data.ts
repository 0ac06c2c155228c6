/**
 * Generator, run by hand: writes the fake GW2 world's curated facts (`tests/fake_gw2/data/`)
 * from the reference pack, in the fake's own compact format (`docs/fake-gw2.md`, "Changing the
 * data").
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-run scripts/fake_world_data.ts [pack folder]
 * ```
 *
 * - `items.json`: every item of the main snapshot (539) and of every legendary's tree (1,138),
 *   their union in ascending id; facts only (a description is kept as its length, a rune's bonus
 *   lines as their count, an icon as a marker: the fake writes fresh prose and synthesizes
 *   icons). Plus `later` rows for the tree ids the 2023 snapshot predates (the Obsidian armor
 *   and its parts): id and name from the records, the other facts those of a named snapshot
 *   item of the same kind.
 * - `recipes.json`: every snapshot recipe of both sets (1,048 and 410), their union; plus the
 *   market's few the tests need beyond them (`MARKET_RECIPES`, with their items).
 * - `materials.json`, `currencies.json`: the snapshot's categories and currencies.
 *
 * The pack defaults to `../shared/gw2-data`.
 *
 * @module
 */

import { readPack, type SnapshotItem, type SnapshotRecipe, writeJson } from "./curation/sources.ts";
import type { PackCurrency, PackLegendary } from "./curation/sources.ts";

const OUT = "tests/fake_gw2/data";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Tree ids the 2023 snapshot predates, with the snapshot item whose facts (type, rarity, level,
 * flags, details, description length) stand in for theirs. Names come from the records (the
 * Obsidian pieces: gw2e-static-data; the parts: gw2efficiency's records, and 101595, which no
 * record names, from the public listings of Gift of the Astral Ward's four ingredients).
 */
const LATER_PARTS: readonly (readonly [number, string, number])[] = [
  [99962, "Gift of Persistence", 100852], // like Gift of Expertise
  [100050, "Arcanum of Astral Grasp", 100852],
  [100098, "Clot of Congealed Screams", 99964], // like Pouch of Stardust: 250 of a map currency
  [100198, "Arcanum of Astral Stride", 100852],
  [100288, "Gift of Stormy Skies", 100852],
  [100466, "Gift of the Astral Ward", 100852],
  [100509, "Arcanum of Astral Heartbeat", 100852],
  [100524, "Arcanum of Astral Bearing", 100852],
  [100706, "Arcanum of Astral Thought", 100852],
  [100946, "Arcanum of Astral Footprints", 100852],
  [101595, "Gift of Inner Nayos", 100544], // like its sibling Gift of Skywatch Archipelago
];

/**
 * Items and recipes of the market beyond the pack's selection that the tests of issue 31 need
 * (Lump of Tin from the master craftsmen in recipes other than a legendary's): Weak Potion of
 * Dredge Slaying and its Artificer recipe. Facts of the 2023 snapshot the pack's main files come
 * from (`tr7zw/Gw2APITracker` at `a58c92a2`, `v2/items/8817.json`, `v2/recipes/4228.json`), in
 * the fake's own format (the effect's text as its length, as every row keeps it).
 */
const MARKET_ITEMS: readonly Record<string, Json>[] = [{
  id: 8817,
  name: "Weak Potion of Dredge Slaying",
  type: "Consumable",
  rarity: "Fine",
  level: 10,
  vendor: 2,
  games: ["Wvw", "Dungeon", "Pve"],
  flags: ["NoSalvage"],
  restrictions: [],
  details: {
    type: "Utility",
    duration_ms: 1_800_000,
    apply_count: 1,
    name: "Enhancement",
    icon: 0,
    description: 48,
  },
  market: true,
}];
const MARKET_RECIPES: readonly Record<string, Json>[] = [{
  id: 4228,
  type: "Potion",
  output: 8817,
  count: 1,
  time: 1000,
  disciplines: ["Artificer"],
  rating: 50,
  flags: [],
  items: [[24272, 1], [19697, 1], [19704, 1], [12156, 1]],
}];

/**
 * The Obsidian armor's slots by the last word of each piece's name, and the Perfected Envoy
 * piece (the other PvE legendary armor of the snapshot) of the same weight and slot whose facts
 * stand in for its own.
 */
const OBSIDIAN_ANALOGUE: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  Light: {
    Crown: 80248,
    Mantle: 80131,
    Regalia: 80190,
    Gloves: 80111,
    Pants: 80356,
    Shoes: 80399,
  },
  Medium: {
    Mask: 80296,
    Shoulders: 80145,
    Jacket: 80578,
    Gloves: 80161,
    Leggings: 80252,
    Boots: 80281,
  },
  Heavy: {
    Helmet: 80384,
    Pauldrons: 80435,
    Breastplate: 80254,
    Gauntlets: 80205,
    Cuisses: 80277,
    Greaves: 80557,
  },
};

/** JavaScript string length (UTF-16 code units): what the fake's prose writer is given. */
function textLength(text: string): number {
  return text.length;
}

/** `details` without prose: descriptions as lengths, bonus lines as a count, icons as 0. */
function factsOf(details: Readonly<Record<string, Json>>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(details)) {
    if (key === "description" && typeof value === "string") out[key] = textLength(value);
    else if (key === "bonuses" && Array.isArray(value)) out[key] = value.length;
    else if (key === "icon") out[key] = 0;
    else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      out[key] = factsOf(value);
    } else out[key] = value;
  }
  return out;
}

/** A snapshot item as a fake data row (field order as the fake's files keep it). */
function itemRow(item: SnapshotItem): Record<string, Json> {
  return {
    id: item.id,
    name: item.name,
    type: item.type,
    rarity: item.rarity,
    level: item.level,
    vendor: item.vendor_value,
    ...(item.default_skin === undefined ? {} : { skin: item.default_skin }),
    games: item.game_types,
    flags: item.flags,
    restrictions: item.restrictions,
    ...(item.description === undefined ? {} : { text: textLength(item.description) }),
    ...(item.description?.startsWith("<c=@flavor>") === true ? { flavor: true } : {}),
    ...(item.details === undefined
      ? {}
      : { details: factsOf(item.details as Record<string, Json>) }),
  };
}

/** A row for an id the snapshot predates: its own id, name and skin, an analogue's facts. */
function laterRow(
  id: number,
  name: string,
  analogue: SnapshotItem | undefined,
  skin?: number,
): Record<string, Json> {
  if (analogue === undefined) throw new Error(`no analogue for ${id} ${name}`);
  const { skin: _analogueSkin, ...row } = itemRow(analogue);
  return { ...row, id, name, ...(skin === undefined ? {} : { skin }), later: true };
}

function obsidianRows(
  legendaries: readonly PackLegendary[],
  items: ReadonlyMap<number, SnapshotItem>,
): Record<string, Json>[] {
  return legendaries.filter((legendary) => legendary.name.startsWith("Obsidian ")).map(
    (legendary) => {
      const [, weight = "", slot = ""] = legendary.name.split(" ");
      const analogue = OBSIDIAN_ANALOGUE[weight]?.[slot];
      if (analogue === undefined) throw new Error(`no slot for ${legendary.name}`);
      return laterRow(
        legendary.id,
        legendary.name,
        items.get(analogue),
        legendary.skin ?? undefined,
      );
    },
  );
}

function recipeRow(recipe: SnapshotRecipe): Record<string, Json> {
  return {
    id: recipe.id,
    type: recipe.type,
    output: recipe.output_item_id,
    count: recipe.output_item_count,
    time: recipe.time_to_craft_ms,
    disciplines: recipe.disciplines,
    rating: recipe.min_rating,
    flags: recipe.flags,
    items: recipe.ingredients.map(({ item_id, count }) => [item_id, count]),
    ...(recipe.guild_ingredients.length === 0
      ? {}
      : { guild: recipe.guild_ingredients.map(({ upgrade_id, count }) => [upgrade_id, count]) }),
    ...(recipe.output_upgrade_id === undefined ? {} : { upgrade: recipe.output_upgrade_id }),
  };
}

function currencyRow(currency: PackCurrency): Record<string, Json> {
  return {
    id: currency.id,
    name: currency.name,
    order: currency.order,
    text: textLength(currency.description),
  };
}

/** The union of two record lists by id, ascending; a shared id must hold the same record. */
function union<T extends { readonly id: number }>(a: readonly T[], b: readonly T[]): T[] {
  const out = new Map<number, T>();
  for (const record of [...a, ...b]) {
    const held = out.get(record.id);
    if (held !== undefined && JSON.stringify(held) !== JSON.stringify(record)) {
      throw new Error(`record ${record.id} differs between the pack's files`);
    }
    out.set(record.id, record);
  }
  return [...out.values()].sort((x, y) => x.id - y.id);
}

async function main(): Promise<void> {
  const pack = await readPack(Deno.args[0]);
  const items = union(pack.items, pack.treeItems);
  const known = new Map(items.map((item) => [item.id, item]));
  const later = [
    ...obsidianRows(pack.legendaries, known),
    ...LATER_PARTS.map(([id, name, analogue]) => laterRow(id, name, known.get(analogue))),
  ];
  for (const row of [...later, ...MARKET_ITEMS]) {
    if (known.has(Number(row.id))) throw new Error(`${row.id} is in the pack after all`);
  }
  const itemRows = [...items.map(itemRow), ...later, ...MARKET_ITEMS].sort((a, b) =>
    Number(a.id) - Number(b.id)
  );
  const recipes = union(pack.recipes, pack.treeRecipes);
  for (const row of MARKET_RECIPES) {
    if (recipes.some((recipe) => recipe.id === row.id)) {
      throw new Error(`recipe ${row.id} is in the pack after all`);
    }
  }
  const recipeRows = [...recipes.map(recipeRow), ...MARKET_RECIPES].sort((a, b) =>
    Number(a.id) - Number(b.id)
  );
  const sizes = {
    items: await writeJson(`${OUT}/items.json`, { items: itemRows }),
    recipes: await writeJson(`${OUT}/recipes.json`, { recipes: recipeRows }),
    currencies: await writeJson(`${OUT}/currencies.json`, {
      currencies: pack.currencies.map(currencyRow),
    }),
    materials: await writeJson(`${OUT}/materials.json`, {
      categories: pack.materials.map(({ id, name, order, items }) => ({
        id,
        name,
        order,
        items,
      })),
    }),
  };
  // deno-lint-ignore no-console -- a generator run by hand reports on stdout
  console.log(
    `items ${itemRows.length} (${later.length} later, ${MARKET_ITEMS.length} market), recipes ${recipeRows.length}; bytes`,
    sizes,
  );
}

if (import.meta.main) await main();
