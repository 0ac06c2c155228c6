/**
 * Builds generated `/v2/items` records (stand-ins and filler) with the same fields, field order
 * and structured `details` as real records of their type, so payload sizes stay realistic.
 *
 * @module
 */

import { type Random, seeded } from "../../support/random.ts";
import { iconUrl, itemChatLink, writeProse } from "./text.ts";
import type { ItemRecord, JsonObject } from "./types.ts";
import { STAT_PREFIXES } from "./words.ts";

/** What a generated item is; `details` is built from it. */
export type ItemShape =
  | { readonly kind: "weapon"; readonly weaponType: string; readonly stat: string }
  | {
    readonly kind: "armor";
    readonly slot: string;
    readonly weight: string;
    readonly stat: string;
  }
  | { readonly kind: "trinket"; readonly trinketType: string; readonly stat: string }
  | { readonly kind: "back"; readonly stat: string }
  | { readonly kind: "upgrade"; readonly upgradeType: string; readonly suffix: string }
  | { readonly kind: "food"; readonly utility: boolean }
  | { readonly kind: "bag"; readonly size: number }
  | { readonly kind: "container" }
  | { readonly kind: "material"; readonly itemType: "CraftingMaterial" | "Trophy" | "Gizmo" };

/** Everything needed to build a generated item. */
export interface ItemSpec {
  readonly id: number;
  readonly name: string;
  readonly rarity: string;
  readonly level: number;
  readonly flags: readonly string[];
  readonly shape: ItemShape;
}

const GAME_TYPES = ["Activity", "Wvw", "Dungeon", "Pve"];
const ATTRIBUTES = [
  "Power",
  "Precision",
  "Toughness",
  "Vitality",
  "ConditionDamage",
  "CritDamage",
  "Healing",
  "BoonDuration",
  "ConditionDuration",
];
const RARITY_RANK: Readonly<Record<string, number>> = {
  Junk: 0,
  Basic: 1,
  Fine: 2,
  Masterwork: 3,
  Rare: 4,
  Exotic: 5,
  Ascended: 6,
  Legendary: 7,
};
const ITEM_TYPE: Readonly<Record<ItemShape["kind"], string>> = {
  weapon: "Weapon",
  armor: "Armor",
  trinket: "Trinket",
  back: "Back",
  upgrade: "UpgradeComponent",
  food: "Consumable",
  bag: "Bag",
  container: "Container",
  material: "CraftingMaterial",
};

/** The rarity rank (Junk 0 … Legendary 7) used to scale generated values. */
export function rarityRank(rarity: string): number {
  return RARITY_RANK[rarity] ?? 1;
}

/** Builds a generated item record in upstream field order. */
export function makeItem(spec: ItemSpec): ItemRecord {
  const random = seeded(spec.id, "item");
  const type = spec.shape.kind === "material" ? spec.shape.itemType : ITEM_TYPE[spec.shape.kind];
  const rank = rarityRank(spec.rarity);
  const details = makeDetails(spec, random);
  return {
    name: spec.name,
    description: writeProse(random.int(20, 60 + rank * 25), {
      seed: [spec.id, "item"],
      kind: type,
    }),
    type,
    level: spec.level,
    rarity: spec.rarity,
    vendor_value: Math.max(0, Math.round((spec.level + 1) * (rank + 1) * random.int(1, 4) / 3)),
    ...(isEquipment(spec.shape) ? { default_skin: random.int(1, 9_999) } : {}),
    game_types: spec.shape.kind === "food" ? GAME_TYPES.slice(1) : GAME_TYPES,
    flags: spec.flags,
    restrictions: [],
    id: spec.id,
    chat_link: itemChatLink(spec.id),
    icon: iconUrl("item", spec.id),
    ...(details === undefined ? {} : { details }),
  };
}

function isEquipment(shape: ItemShape): boolean {
  return shape.kind === "weapon" || shape.kind === "armor" || shape.kind === "back";
}

function makeDetails(spec: ItemSpec, random: Random): JsonObject | undefined {
  const shape = spec.shape;
  const rank = rarityRank(spec.rarity);
  switch (shape.kind) {
    case "weapon": {
      const base = 300 + spec.level * 8 + rank * 20;
      return {
        type: shape.weaponType,
        damage_type: "Physical",
        min_power: base + random.int(0, 60),
        max_power: base + random.int(90, 220),
        defense: shape.weaponType === "Shield" ? 20 + spec.level : 0,
        infusion_slots: infusionSlots(rank),
        attribute_adjustment: round3(spec.level * 4.27 * (1 + rank / 10)),
        infix_upgrade: infix(shape.stat, spec.level, rank),
        ...(rank >= 4 ? { suffix_item_id: 24_500 + random.int(0, 150) } : {}),
        secondary_suffix_item_id: "",
      };
    }
    case "armor":
      return {
        type: shape.slot,
        weight_class: shape.weight,
        defense: 10 + spec.level * 2 + rank * 6,
        infusion_slots: infusionSlots(rank),
        attribute_adjustment: round3(spec.level * 1.68 * (1 + rank / 10)),
        infix_upgrade: infix(shape.stat, spec.level, rank),
        ...(rank >= 4 ? { suffix_item_id: 24_700 + random.int(0, 150) } : {}),
        secondary_suffix_item_id: "",
      };
    case "trinket":
      return {
        type: shape.trinketType,
        infusion_slots: infusionSlots(rank),
        attribute_adjustment: round3(spec.level * 3.2 * (1 + rank / 10)),
        infix_upgrade: infix(shape.stat, spec.level, rank),
      };
    case "back":
      return {
        infusion_slots: infusionSlots(rank),
        attribute_adjustment: round3(spec.level * 1.1 * (1 + rank / 10)),
        infix_upgrade: infix(shape.stat, spec.level, rank),
      };
    case "upgrade":
      return {
        type: shape.upgradeType,
        flags: shape.upgradeType === "Rune"
          ? ["HeavyArmor", "LightArmor", "MediumArmor"]
          : ["Axe", "Dagger", "Focus", "Greatsword", "Hammer", "LongBow", "Mace", "Pistol"],
        infusion_upgrade_flags: [],
        ...(shape.upgradeType === "Rune"
          ? { bonuses: ["+25 Power", "+35 Precision", "+50 Power", "+65 Precision"] }
          : {}),
        attribute_adjustment: 0,
        infix_upgrade: {
          id: 100 + random.int(0, 400),
          buff: {
            skill_id: random.int(9_000, 99_999),
            description: writeProse(random.int(40, 140), { seed: [spec.id, "buff"] }),
          },
          attributes: [],
        },
        suffix: shape.suffix,
      };
    case "food":
      return {
        type: shape.utility ? "Utility" : "Food",
        duration_ms: 1_800_000,
        apply_count: 1,
        name: shape.utility ? "Enhancement" : "Nourishment",
        icon: iconUrl("effect", spec.id),
        description: writeProse(random.int(50, 110), { seed: [spec.id, "effect"] }),
      };
    case "bag":
      return { no_sell_or_sort: false, size: shape.size };
    case "container":
      return { type: random.pick(["Default", "GiftBox", "OpenUI"]) };
    case "material":
      return undefined;
  }
}

function infusionSlots(rank: number): JsonObject[] {
  return rank >= 6 ? [{ flags: ["Infusion"] }] : [];
}

function infix(stat: string, level: number, rank: number): JsonObject {
  const index = Math.max(0, STAT_PREFIXES.indexOf(stat));
  const major = Math.round((level + 1) * (1 + rank / 4) * 0.9);
  const minor = Math.round(major * 0.7);
  const attributes = [0, 1, 2].map((offset) => ({
    attribute: ATTRIBUTES[(index + offset * 3) % ATTRIBUTES.length] ?? "Power",
    modifier: offset === 0 ? major : minor,
  }));
  return { id: 150 + index, attributes };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
