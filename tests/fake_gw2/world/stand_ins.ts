/**
 * Stand-in items for real ids the curated data references but does not describe: outputs and
 * ingredients of the curated recipes, and material-storage entries. The real API knows every
 * such id, so the fake must too (a recipe whose output 404s would be a fake-only hole). Their
 * type, rarity and level follow the recipe that makes them; their names are generated.
 *
 * @module
 */

import { type ItemShape, makeItem } from "./item_factory.ts";
import { type Random, seeded } from "../../support/random.ts";
import type { ItemRecord, MaterialCategoryRecord, RecipeRecord } from "./types.ts";
import {
  ARMOR_NOUNS,
  ARMOR_SETS,
  BAG_NOUNS,
  BAG_SIZES,
  DISHES,
  FLAVOURS,
  FOODS,
  GEMS,
  MATERIAL_ADJECTIVES,
  MATERIAL_NOUNS,
  METALS,
  STAT_PREFIXES,
  UPGRADE_GRADES,
  UPGRADE_SUFFIXES,
  weaponNoun,
  WOODS,
} from "./words.ts";

const WEAPON_RECIPE_TYPES = new Set([
  "Axe",
  "Dagger",
  "Focus",
  "Greatsword",
  "Hammer",
  "Harpoon",
  "LongBow",
  "Mace",
  "Pistol",
  "Rifle",
  "Scepter",
  "Shield",
  "ShortBow",
  "Speargun",
  "Staff",
  "Sword",
  "Torch",
  "Trident",
  "Warhorn",
]);
const ARMOR_RECIPE_TYPES = new Set(["Boots", "Coat", "Gloves", "Helm", "Leggings", "Shoulders"]);
const ARMOR_WEIGHT: Readonly<Record<string, string>> = {
  Armorsmith: "Heavy",
  Leatherworker: "Medium",
  Tailor: "Light",
};
const COMPONENT_PARTS = ["Hilt", "Blade", "Plate", "Strap", "Lining", "Haft", "Inlay", "Casing"];

/**
 * Stand-ins for every id referenced by `recipes` or `categories` that `known` lacks, in id
 * order.
 */
export function standInItems(
  known: ReadonlySet<number>,
  recipes: readonly RecipeRecord[],
  categories: readonly MaterialCategoryRecord[],
): ItemRecord[] {
  const madeBy = new Map<number, RecipeRecord>();
  for (const recipe of recipes) {
    if (!madeBy.has(recipe.output_item_id)) madeBy.set(recipe.output_item_id, recipe);
  }
  const referenced = new Set<number>(madeBy.keys());
  for (const recipe of recipes) {
    for (const ingredient of recipe.ingredients) {
      if (ingredient.type === "Item") referenced.add(ingredient.id);
    }
  }
  const categoryOf = new Map<number, number>();
  for (const category of categories) {
    for (const id of category.items) {
      referenced.add(id);
      categoryOf.set(id, category.id);
    }
  }
  return [...referenced]
    .filter((id) => !known.has(id))
    .sort((a, b) => a - b)
    .map((id) => {
      const recipe = madeBy.get(id);
      return recipe === undefined
        ? materialStandIn(id, categoryOf.get(id))
        : craftedStandIn(id, recipe);
    });
}

function craftedStandIn(id: number, recipe: RecipeRecord): ItemRecord {
  const random = seeded(id, "stand-in");
  const rating = recipe.min_rating;
  const tier = Math.min(5, Math.floor(rating / 75));
  const rarity = rating >= 500
    ? "Ascended"
    : rating >= 400
    ? "Exotic"
    : rating >= 300
    ? "Rare"
    : rating >= 150
    ? "Masterwork"
    : rating >= 75
    ? "Fine"
    : "Basic";
  const level = Math.min(80, Math.round(rating / 5));
  const bound = rarity === "Ascended" ? ["AccountBound", "AccountBindOnUse"] : [];
  const gearFlags = rarity === "Ascended"
    ? ["HideSuffix", ...bound]
    : rarity === "Exotic"
    ? ["HideSuffix", "SoulBindOnUse"]
    : [];
  const stat = random.pick(STAT_PREFIXES);
  const discipline = recipe.disciplines[0] ?? "Weaponsmith";
  const material = ["Huntsman", "Artificer"].includes(discipline) ? WOODS[tier] : METALS[tier];
  const base = { id, rarity, level };
  const type = recipe.type;

  if (WEAPON_RECIPE_TYPES.has(type)) {
    return makeItem({
      ...base,
      name: `${stat} ${material} ${weaponNoun(type)}`,
      flags: gearFlags,
      shape: { kind: "weapon", weaponType: type, stat },
    });
  }
  if (ARMOR_RECIPE_TYPES.has(type)) {
    const weight = ARMOR_WEIGHT[discipline] ?? "Heavy";
    const set = random.pick(ARMOR_SETS[weight] ?? ["Plated"]);
    const noun = ARMOR_NOUNS[weight]?.[type] ?? type;
    return makeItem({
      ...base,
      name: `${stat} ${set} ${noun}`,
      flags: gearFlags,
      shape: { kind: "armor", slot: type, weight, stat },
    });
  }
  const shape = craftedShape(type, discipline, random, stat);
  return makeItem({
    ...base,
    name: craftedName(shape, type, random, stat, material ?? "Bronze"),
    flags: shape.kind === "material" ? bound : gearFlags,
    shape,
  });
}

function craftedShape(type: string, discipline: string, random: Random, stat: string): ItemShape {
  switch (type) {
    case "Backpack":
      return { kind: "back", stat };
    case "Ring":
    case "Amulet":
    case "Accessory":
      return { kind: "trinket", trinketType: type, stat };
    case "Bag":
      return { kind: "bag", size: random.pick(BAG_SIZES) };
    case "Consumable":
    case "Snack":
    case "Meal":
    case "GuildConsumable":
    case "GuildConsumableWvw":
      return { kind: "food", utility: type.startsWith("Guild") };
    case "UpgradeComponent":
      return discipline === "Jeweler"
        ? { kind: "upgrade", upgradeType: "Gem", suffix: `of ${random.pick(GEMS)}` }
        : {
          kind: "upgrade",
          upgradeType: ["Armorsmith", "Leatherworker", "Tailor"].includes(discipline)
            ? "Rune"
            : "Sigil",
          suffix: `of ${random.pick(UPGRADE_SUFFIXES)}`,
        };
    case "GuildDecoration":
      return { kind: "material", itemType: "Gizmo" };
    default:
      return { kind: "material", itemType: "CraftingMaterial" };
  }
}

function craftedName(
  shape: ItemShape,
  type: string,
  random: Random,
  stat: string,
  material: string,
): string {
  switch (shape.kind) {
    case "back":
      return `${stat} Back Brace`;
    case "trinket":
      return `${stat} ${random.pick(GEMS)} ${type === "Ring" ? "Ring" : "Amulet"}`;
    case "bag":
      return `${shape.size} Slot ${material} ${random.pick(BAG_NOUNS)}`;
    case "food":
      return `${random.pick(DISHES)} ${random.pick(FLAVOURS)} ${random.pick(FOODS)}`;
    case "upgrade":
      return shape.upgradeType === "Gem"
        ? `${random.pick(UPGRADE_GRADES)} ${shape.suffix.slice(3)} Jewel`
        : `${random.pick(UPGRADE_GRADES)} ${shape.upgradeType} ${shape.suffix}`;
    default:
      break;
  }
  switch (type) {
    case "Inscription":
      return `${stat} ${material} Inscription`;
    case "Insignia":
      return `${stat} ${material} Insignia`;
    case "GuildDecoration":
      return `${random.pick(MATERIAL_ADJECTIVES)} Guild ${
        random.pick(["Banner", "Lantern", "Statue", "Rug"])
      }`;
    case "LegendaryComponent":
      return `${random.pick(MATERIAL_ADJECTIVES)} ${random.pick(MATERIAL_NOUNS)} Core`;
    default:
      return `${material} ${random.pick(COMPONENT_PARTS)}`;
  }
}

function materialStandIn(id: number, category: number | undefined): ItemRecord {
  const random = seeded(id, "stand-in");
  const ascended = category === 46;
  return makeItem({
    id,
    name: `${random.pick(MATERIAL_ADJECTIVES)} ${random.pick(MATERIAL_NOUNS)}`,
    rarity: ascended ? "Ascended" : random.pick(["Basic", "Basic", "Fine", "Masterwork", "Rare"]),
    level: 0,
    flags: ascended ? ["AccountBound", "NoSell", "AccountBindOnUse"] : [],
    shape: { kind: "material", itemType: "CraftingMaterial" },
  });
}
