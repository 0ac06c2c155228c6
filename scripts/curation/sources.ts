/**
 * Reads the reference data pack (`../shared/gw2-data/` by default, or the folder given) for the
 * generators, validating every record it relies on. Only the generators under `scripts/` read
 * the pack; the project never does at run or test time.
 *
 * @module
 */

import { z } from "zod";
import type { SourceRecord } from "./select.ts";

/** Where the pack lives unless a generator is given another folder. */
export const DEFAULT_PACK = "../shared/gw2-data";

const Id = z.number().int().positive();

/** A `/v2/items` record of the 2023 snapshot; fields the generators do not read stay as given. */
const ItemSchema = z.looseObject({
  id: Id,
  name: z.string(),
  description: z.string().optional(),
  type: z.string(),
  level: z.number().int(),
  rarity: z.string(),
  vendor_value: z.number().int(),
  default_skin: Id.optional(),
  game_types: z.array(z.string()),
  flags: z.array(z.string()),
  restrictions: z.array(z.string()),
  details: z.record(z.string(), z.json()).optional(),
});

/** A snapshot item record. */
export type SnapshotItem = z.infer<typeof ItemSchema>;

/** A `/v2/recipes` record of the snapshot, pre-2022 schema. */
const RecipeSchema = z.object({
  id: Id,
  type: z.string(),
  output_item_id: Id,
  output_item_count: z.number().int().positive(),
  time_to_craft_ms: z.number().int(),
  disciplines: z.array(z.string()),
  min_rating: z.number().int(),
  flags: z.array(z.string()),
  ingredients: z.array(z.object({ item_id: Id, count: z.number().int().positive() })),
  guild_ingredients: z.array(z.object({ upgrade_id: Id, count: z.number().int().positive() })),
  output_upgrade_id: Id.optional(),
  chat_link: z.string(),
});

/** A snapshot recipe record. */
export type SnapshotRecipe = z.infer<typeof RecipeSchema>;

const RecordSchema = z.object({
  name: z.string(),
  output_item_id: Id,
  output_item_count: z.number().positive(),
  ingredients: z.array(z.object({
    count: z.number().int().nonnegative(),
    type: z.enum(["Item", "Currency"]),
    id: Id,
  })),
  disciplines: z.array(z.string()),
  merchant: z.object({ name: z.string() }).nullish(),
});

const LegendarySchema = z.object({
  id: Id,
  name: z.string(),
  type: z.string(),
  generation: z.number().int(),
  skin: Id.nullish(),
  precursorId: Id.nullish(),
  source: z.string(),
});

/** A row of gw2e-static-data's legendary list. */
export type PackLegendary = z.infer<typeof LegendarySchema>;

const CurrencySchema = z.object({
  id: Id,
  name: z.string(),
  description: z.string(),
  order: z.number().int(),
});

/** A `/v2/currencies` record of the snapshot. */
export type PackCurrency = z.infer<typeof CurrencySchema>;

const MaterialSchema = z.object({
  id: Id,
  name: z.string(),
  items: z.array(Id),
  order: z.number().int(),
});

/** A `/v2/materials` category of the snapshot. */
export type PackMaterial = z.infer<typeof MaterialSchema>;

/** Everything the generators read from the pack. */
export interface Pack {
  /** `items.json`: the main snapshot's 539 items. */
  readonly items: readonly SnapshotItem[];
  /** `recipes.json`: the main snapshot's 1,048 recipes. */
  readonly recipes: readonly SnapshotRecipe[];
  /** `legendary-trees/items.json`: every closure item the snapshot has (1,138). */
  readonly treeItems: readonly SnapshotItem[];
  /** `legendary-trees/recipes.json`: every snapshot recipe making a closure item (410). */
  readonly treeRecipes: readonly SnapshotRecipe[];
  /** `legendary-trees/mystic_forge.json`, in the source's order. */
  readonly forge: readonly SourceRecord[];
  /** `legendary-trees/merchants.json`, in the source's order. */
  readonly merchants: readonly SourceRecord[];
  /**
   * `merchants/currency_offers.json`, in the source's order: every merchant offer paid in
   * currencies alone whose output any official recipe of the 2023 catalogue uses (416 offers,
   * 87 items).
   */
  readonly marketOffers: readonly SourceRecord[];
  /** `legendaries.json`: gw2e-static-data 0.5.47's 172 legendaries. */
  readonly legendaries: readonly PackLegendary[];
  /** `currencies.json`: the snapshot's 69 currencies. */
  readonly currencies: readonly PackCurrency[];
  /** `materials.json`: the snapshot's 9 material-storage categories. */
  readonly materials: readonly PackMaterial[];
}

/** Reads and validates the pack under `folder`. */
export async function readPack(folder: string = DEFAULT_PACK): Promise<Pack> {
  const read = async <T>(file: string, schema: z.ZodType<T>): Promise<T[]> => {
    const text = await Deno.readTextFile(`${folder}/${file}`);
    return z.array(schema).parse(JSON.parse(text));
  };
  return {
    items: await read("items.json", ItemSchema),
    recipes: await read("recipes.json", RecipeSchema),
    treeItems: await read("legendary-trees/items.json", ItemSchema),
    treeRecipes: await read("legendary-trees/recipes.json", RecipeSchema),
    forge: await read("legendary-trees/mystic_forge.json", RecordSchema),
    merchants: await read("legendary-trees/merchants.json", RecordSchema),
    marketOffers: await read("merchants/currency_offers.json", RecordSchema),
    legendaries: await read("legendaries.json", LegendarySchema),
    currencies: await read("currencies.json", CurrencySchema),
    materials: await read("materials.json", MaterialSchema),
  };
}

/** The records of `list` grouped by output id, each group in the list's order. */
export function byOutput(list: readonly SourceRecord[]): Map<number, SourceRecord[]> {
  const out = new Map<number, SourceRecord[]>();
  for (const record of list) {
    const group = out.get(record.output_item_id) ?? [];
    group.push(record);
    out.set(record.output_item_id, group);
  }
  return out;
}

/**
 * Writes `value` as JSON and formats it with `deno fmt`, as the project formats its files.
 * Returns the file's size in bytes.
 */
export async function writeJson(path: string, value: unknown): Promise<number> {
  await Deno.writeTextFile(path, JSON.stringify(value) + "\n");
  const fmt = await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", path] }).output();
  if (!fmt.success) throw new Error(`deno fmt ${path}: ${new TextDecoder().decode(fmt.stderr)}`);
  return (await Deno.stat(path)).size;
}

/**
 * Writes an object of lists as JSON with one compact element per line: small, and a change to
 * one record is a one-line diff. (`deno fmt` would spread every record over several lines, so
 * files written this way are excluded from it in `deno.json`.) Returns the file's size in bytes.
 */
export async function writeJsonLines(
  path: string,
  lists: Readonly<Record<string, readonly unknown[]>>,
): Promise<number> {
  const blocks = Object.entries(lists).map(([key, list]) =>
    `  ${JSON.stringify(key)}: [\n${
      list.map((row) => `    ${JSON.stringify(row)}`).join(",\n")
    }\n  ]`
  );
  const text = `{\n${blocks.join(",\n")}\n}\n`;
  JSON.parse(text); // the layout is valid JSON
  await Deno.writeTextFile(path, text);
  return new TextEncoder().encode(text).length;
}
