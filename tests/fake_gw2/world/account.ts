/**
 * The fake player accounts: many-character accounts with a bank, shared inventory, material
 * storage and wallet, holding legendary-relevant materials (ectoplasm, tier-6 materials,
 * clovers, obsidian shards, a precursor, some gifts) so account-aware crafting trees and
 * rankings have something to work with. The main account has 14 characters; the veteran
 * account has 19, the size the seeds measured the holdings fan-out on. Everything is generated
 * from fixed seeds.
 *
 * @module
 */

import { type Random, seeded } from "../../support/random.ts";
import type {
  AccountMaterialRecord,
  AccountRecord,
  BagRecord,
  CharacterRecord,
  CraftingRecord,
  CurrencyRecord,
  EquipmentRecord,
  FakeCharacter,
  ItemRecord,
  ItemSlotRecord,
  MaterialCategoryRecord,
  WalletRecord,
} from "./types.ts";
import { type ArmorySlotRecord, VETERAN_ARMORY } from "./armory.ts";
import { T6_MATERIAL_IDS, WELL_KNOWN } from "./well_known.ts";
import { MARKET_ITEM_IDS } from "./curated.ts";

/** The account-scoped part of the world. */
export interface FakeAccount {
  readonly account: AccountRecord;
  readonly accountMaterials: readonly AccountMaterialRecord[];
  readonly wallet: readonly WalletRecord[];
  readonly bank: readonly (ItemSlotRecord | null)[];
  readonly sharedInventory: readonly (ItemSlotRecord | null)[];
  readonly characters: ReadonlyMap<string, FakeCharacter>;
  /** `/v2/account/legendaryarmory`: the legendaries unlocked, and how many of each. */
  readonly legendaryArmory: readonly ArmorySlotRecord[];
}

const GUILDS = [
  "4BBB52AA-D768-4FC6-8EDE-C299F2822F0F",
  "116E0C0E-0035-44A9-BB22-4AE3E23127E5",
  "9F3A2C41-7B1D-4E8A-A5C6-2D0F8E9B1C37",
];

/** The account record with every optional field; routes drop what scopes and schema forbid. */
const ACCOUNT: AccountRecord = {
  id: "C19467C6-F5AD-E211-8756-78E7D1936222",
  name: "Priory Tester.4821",
  age: 31_536_000 * 6 + 4_211_340,
  world: 1004,
  guilds: GUILDS,
  guild_leader: [GUILDS[0] ?? ""],
  created: "2014-03-18T19:42:00Z",
  access: ["GuildWars2", "HeartOfThorns", "PathOfFire", "EndOfDragons", "SecretsOfTheObscure"],
  commander: true,
  fractal_level: 100,
  daily_ap: 11_203,
  monthly_ap: 1_482,
  wvw_rank: 687,
  wvw: { team_id: 11_003, rank: 687 },
  last_modified: "2026-11-28T21:14:09Z",
  build_storage_slots: 6,
};

/** name, race, gender, profession, level, crafting (discipline:rating, first one active). */
const CHARACTERS: readonly CharacterRow[] = [
  ["Zoë Ironfist", "Norn", "Female", "Warrior", 80, "Weaponsmith:500,Armorsmith:500"],
  ["Aurora Brightwind", "Sylvari", "Female", "Elementalist", 80, "Artificer:500,Tailor:400"],
  ["Kael Thornhollow", "Human", "Male", "Ranger", 80, "Huntsman:500,Leatherworker:450"],
  ["Snaff Cogsworth", "Asura", "Male", "Engineer", 80, "Jeweler:400,Scribe:400"],
  ["Mira of the Grove", "Sylvari", "Female", "Ranger", 80, "Chef:500"],
  ["Björn Frostmane", "Norn", "Male", "Guardian", 80, "Armorsmith:400"],
  ["Élodie Sunward", "Human", "Female", "Mesmer", 80, "Tailor:500,Jeweler:500"],
  ["Grumbar Deepforge", "Charr", "Male", "Revenant", 80, ""],
  ["Nyx Shadowstep", "Human", "Female", "Thief", 80, "Leatherworker:500"],
  ["Quill Tinkerton", "Asura", "Female", "Necromancer", 80, "Scribe:350"],
  ["Rhys Ashenvale", "Charr", "Male", "Warrior", 62, "Weaponsmith:300"],
  ["Séverine Lacroix", "Human", "Female", "Guardian", 80, "Chef:400,Artificer:275"],
  ["Tamsin Halloway", "Human", "Female", "Ranger", 33, ""],
  ["Old Man Kettle", "Charr", "Male", "Engineer", 80, "Huntsman:450"],
];

/** Fixed counts of legendary-relevant materials in material storage. */
const STORED: ReadonlyMap<number, number> = new Map([
  [WELL_KNOWN.globOfEctoplasm, 1_234],
  [WELL_KNOWN.mysticClover, 38],
  [WELL_KNOWN.mysticCoin, 85],
  [WELL_KNOWN.obsidianShard, 130],
  [WELL_KNOWN.icyRunestone, 100],
  [WELL_KNOWN.philosophersStone, 60],
  [WELL_KNOWN.orichalcumOre, 412],
  [WELL_KNOWN.orichalcumIngot, 96],
  [WELL_KNOWN.mithrilIngot, 250],
  [WELL_KNOWN.elderWoodPlank, 318],
  // Tier 6: some above the 250 a gift needs, some below.
  [24295, 312],
  [24277, 198],
  [24283, 250],
  [24300, 57],
  [24289, 401],
  [24351, 264],
  [24358, 133],
  [24357, 0],
]);

/** The first bank slots, spelled out: a partly gathered Sunrise and the wiki's clover stack. */
const BANK_HEAD: readonly (ItemSlotRecord | null)[] = [
  { id: WELL_KNOWN.mysticClover, count: 12, binding: "Account" },
  null,
  null,
  { id: WELL_KNOWN.obsidianShard, count: 250, binding: "Account" },
  { id: WELL_KNOWN.dawn, count: 1 },
  { id: WELL_KNOWN.giftOfMetal, count: 1, binding: "Account" },
  { id: WELL_KNOWN.giftOfMight, count: 1, binding: "Account" },
  { id: WELL_KNOWN.bloodstoneShard, count: 1, binding: "Account" },
  { id: WELL_KNOWN.globOfEctoplasm, count: 250 },
  { id: WELL_KNOWN.globOfEctoplasm, count: 16 },
  null,
  { id: WELL_KNOWN.vialOfPowerfulBlood, count: 250 },
  { id: WELL_KNOWN.viciousFang, count: 75 },
];

const SHARED_INVENTORY: readonly (ItemSlotRecord | null)[] = [
  { id: 19986, count: 1, charges: 18, binding: "Account" },
  null,
  { id: WELL_KNOWN.eldritchScroll, count: 1, binding: "Account" },
  { id: WELL_KNOWN.mysticCoin, count: 25 },
  null,
  { id: WELL_KNOWN.giftOfMagic, count: 1, binding: "Account" },
  null,
  null,
];

/** Wallet: currency id → value (coin in copper: 3,141 gold 59 silver 26 copper). */
const WALLET: ReadonlyMap<number, number> = new Map([
  [1, 31_415_926],
  [2, 2_718_281],
  [3, 412],
  [4, 1_600],
  [7, 3_120],
  [15, 9_876],
  [16, 44],
  [18, 310],
  [23, 512],
  [24, 88],
  [25, 1_337],
  [26, 205],
  [28, 4_410],
  [29, 12],
  [30, 96],
  [32, 23_456],
  [34, 1_940],
  [45, 57_210],
  [50, 640],
  [59, 1_250],
  [61, 4_096],
  [62, 2_470],
  // Astral Acclaim, under its cap of 1,300: some Vault rewards cost more (`world/vault.ts`).
  [63, 640],
  [70, 3],
]);

/** The main account, "Priory Tester.4821" (14 characters). */
export const MAIN_ACCOUNT: AccountSpec = {
  seed: [],
  account: ACCOUNT,
  characters: CHARACTERS,
  stored: STORED,
  bankHead: BANK_HEAD,
  sharedInventory: SHARED_INVENTORY,
  wallet: WALLET,
  carried: [],
  equipped: [],
  armory: [],
};

/**
 * The veteran account, "Priory Veteran.1907": 19 characters, the account size on which the seeds
 * measured 22 upstream requests and 31 s for reading every bag one character at a time. Its
 * legendary materials are spread over every source: storage, bank, shared slots and bags.
 */
export const VETERAN_ACCOUNT: AccountSpec = {
  seed: ["veteran"],
  account: {
    id: "5D8E6A12-3B7C-E311-9F21-0CC47A2B9E44",
    name: "Priory Veteran.1907",
    age: 31_536_000 * 9 + 1_234_567,
    world: 2003,
    guilds: [GUILDS[1] ?? ""],
    guild_leader: [],
    created: "2012-08-28T10:05:00Z",
    access: [
      "GuildWars2",
      "HeartOfThorns",
      "PathOfFire",
      "EndOfDragons",
      "SecretsOfTheObscure",
      "JanthirWilds",
    ],
    commander: false,
    fractal_level: 212,
    daily_ap: 14_870,
    monthly_ap: 2_215,
    wvw_rank: 1_204,
    wvw: { team_id: 12_008, rank: 1_204 },
    last_modified: "2026-11-29T08:02:51Z",
    build_storage_slots: 12,
  },
  characters: [
    ["Aldric Stormvale", "Human", "Male", "Guardian", 80, "Weaponsmith:500,Huntsman:500"],
    ["Brynja Coldwater", "Norn", "Female", "Ranger", 80, "Leatherworker:500"],
    ["Cinder Vexlock", "Charr", "Female", "Engineer", 80, "Artificer:500,Scribe:450"],
    ["Dafydd ap Rhun", "Human", "Male", "Thief", 80, "Jeweler:500"],
    ["Ember Quickcog", "Asura", "Female", "Elementalist", 80, "Tailor:500,Chef:500"],
    ["Fern of Twin Roots", "Sylvari", "Female", "Druid", 80, "Huntsman:400"],
    ["Gorrik Bladehorn", "Charr", "Male", "Warrior", 80, "Armorsmith:500"],
    ["Hélène Marchetti", "Human", "Female", "Mesmer", 80, "Jeweler:400,Tailor:400"],
    ["Ingrid Wolfsbane", "Norn", "Female", "Necromancer", 80, ""],
    ["Jorvik Ashmantle", "Norn", "Male", "Revenant", 80, "Armorsmith:450"],
    ["Kett Zapwhistle", "Asura", "Male", "Engineer", 80, "Artificer:400"],
    ["Lúthien Dawnleaf", "Sylvari", "Female", "Guardian", 80, "Weaponsmith:400,Chef:300"],
    ["Morrow Greycloak", "Human", "Male", "Ranger", 80, "Leatherworker:400"],
    ["Nessa Brightforge", "Charr", "Female", "Warrior", 80, "Weaponsmith:500"],
    ["Oskar Tidewalker", "Norn", "Male", "Elementalist", 71, ""],
    ["Pim Sparkfuse", "Asura", "Female", "Thief", 80, "Scribe:500"],
    ["Quen of the Verdant", "Sylvari", "Male", "Mesmer", 80, "Tailor:450"],
    ["Rósa Eldfell", "Norn", "Female", "Revenant", 45, ""],
    ["Søren Kaldheim", "Human", "Male", "Necromancer", 80, "Huntsman:500,Artificer:500"],
  ],
  stored: new Map([
    [WELL_KNOWN.globOfEctoplasm, 2_410],
    [WELL_KNOWN.mysticClover, 64],
    [WELL_KNOWN.mysticCoin, 212],
    [WELL_KNOWN.obsidianShard, 480],
    [WELL_KNOWN.icyRunestone, 200],
    [WELL_KNOWN.philosophersStone, 145],
    [WELL_KNOWN.orichalcumOre, 903],
    [WELL_KNOWN.orichalcumIngot, 340],
    [WELL_KNOWN.mithrilIngot, 500],
    [WELL_KNOWN.elderWoodPlank, 620],
    [24295, 250],
    [24277, 488],
    [24283, 131],
    [24300, 250],
    [24289, 76],
    [24351, 250],
    [24358, 302],
    [24357, 19],
  ]),
  bankHead: [
    { id: WELL_KNOWN.dusk, count: 1 },
    { id: WELL_KNOWN.mysticClover, count: 27, binding: "Account" },
    { id: WELL_KNOWN.giftOfMagic, count: 1, binding: "Account" },
    { id: WELL_KNOWN.giftOfMight, count: 2, binding: "Account" },
    null,
    { id: WELL_KNOWN.giftOfFortune, count: 1, binding: "Account" },
    { id: WELL_KNOWN.giftOfMastery, count: 1, binding: "Account" },
    { id: WELL_KNOWN.viciousFang, count: 250 },
    { id: WELL_KNOWN.viciousFang, count: 81 },
    { id: WELL_KNOWN.armoredScale, count: 174 },
    null,
    { id: WELL_KNOWN.obsidianShard, count: 150, binding: "Account" },
    // Beyond generation 1: parts of the gen-2, gen-3, armor, trinket, back and rune trees.
    { id: 73239, count: 1, binding: "Account" }, // Gift of Maguuma Mastery (gen 2)
    { id: 71820, count: 1, binding: "Account" }, // Mystic Tribute (gen 2, Aurora)
    { id: 96033, count: 1, binding: "Account" }, // Gift of Jade Mastery (gen 3)
    { id: 96357, count: 1 }, // Dragon's Bite, a gen-3 precursor
    null,
    { id: 78866, count: 1, binding: "Account" }, // Gift of Prosperity (PvE armor)
    { id: 80516, count: 3, binding: "Account" }, // Envoy Insignia (PvE armor)
    { id: 70867, count: 2, binding: "Account" }, // Gift of Condensed Might
    { id: 76530, count: 1, binding: "Account" }, // Gift of Condensed Magic
    { id: 81796, count: 1, binding: "Account" }, // Gift of Sentience (Aurora)
    { id: 81729, count: 1, binding: "Account" }, // Spark of Sentience (Aurora; earned only)
    { id: 74377, count: 1, binding: "Account" }, // Gift of Infinity (Ad Infinitum; earned only)
    { id: 77451, count: 1, binding: "Account" }, // Gift of Craftsmanship (rune, sigil, armor)
  ],
  sharedInventory: [
    { id: WELL_KNOWN.eldritchScroll, count: 2, binding: "Account" },
    { id: WELL_KNOWN.bloodstoneShard, count: 1, binding: "Account" },
    null,
    { id: WELL_KNOWN.mysticCoin, count: 100 },
    { id: 19986, count: 1, charges: 7, binding: "Account" },
    null,
  ],
  wallet: new Map([...WALLET].map(([id, value]) => [id, id === 1 ? 187_654_321 : value * 2])),
  carried: [
    { id: WELL_KNOWN.globOfEctoplasm, count: 250 },
    { id: WELL_KNOWN.globOfEctoplasm, count: 118 },
    { id: WELL_KNOWN.mysticClover, count: 11, binding: "Account" },
    { id: WELL_KNOWN.pileOfCrystallineDust, count: 250 },
    { id: WELL_KNOWN.elaborateTotem, count: 93 },
    { id: 73248, count: 120 }, // Stabilizing Matrix (every armor piece, gen 2)
    { id: WELL_KNOWN.thermocatalyticReagent, count: 30 },
  ],
  // The Predator's precursor on Aldric (in his second equipment tab: players often keep a
  // precursor equipped; the account holds none elsewhere), and Sunrise in his third, from the
  // legendary armory, which holds it for the whole account and never gives it up.
  equipped: [
    { id: WELL_KNOWN.theHunter, slot: "WeaponA1", location: "Armory", tabs: [2] },
    { id: WELL_KNOWN.sunrise, slot: "WeaponA1", location: "LegendaryArmory", tabs: [3] },
  ],
  armory: VETERAN_ARMORY,
};

/** What distinguishes one fake account from another; the rest is generated from seeds. */
export interface AccountSpec {
  /** Extra seed parts for storage and bank (empty for the main account, keeping its bytes). */
  readonly seed: readonly string[];
  readonly account: AccountRecord;
  /** name, race, gender, profession, level, crafting (discipline:rating, first one active). */
  readonly characters: readonly CharacterRow[];
  /** Fixed material-storage counts; every other storable material is random. */
  readonly stored: ReadonlyMap<number, number>;
  /** The first bank slots, spelled out. */
  readonly bankHead: readonly (ItemSlotRecord | null)[];
  readonly sharedInventory: readonly (ItemSlotRecord | null)[];
  /** Currency id → value. */
  readonly wallet: ReadonlyMap<number, number>;
  /** The first slots of the first character's first bag, spelled out. */
  readonly carried: readonly ItemSlotRecord[];
  /** Items the first character wears besides its generated gear, spelled out. */
  readonly equipped: readonly EquipmentRecord[];
  /** The legendary armory's unlocks. */
  readonly armory: readonly ArmorySlotRecord[];
}

/** One character row: name, race, gender, profession, level, crafting. */
type CharacterRow = readonly [string, string, string, string, number, string];

const STACKABLE = new Set(["CraftingMaterial", "Trophy", "Consumable", "UpgradeComponent"]);
/** Armor slots a character's generated gear fills. */
const ARMOR_SLOTS = ["Helm", "Shoulders", "Coat", "Gloves", "Leggings", "Boots"] as const;
const GEAR = new Set(["Weapon", "Armor", "Trinket", "Back"]);

/** Builds an account from its spec and the world's items, material categories and currencies. */
export function buildAccount(
  spec: AccountSpec,
  items: ReadonlyMap<number, ItemRecord>,
  categories: readonly MaterialCategoryRecord[],
  currencies: ReadonlyMap<number, CurrencyRecord>,
): FakeAccount {
  const pools = slotPools(items);
  const names = spec.characters.map(([name]) => name);
  const characters = new Map<string, FakeCharacter>();
  spec.characters.forEach((row, index) => {
    const carried = index === 0 ? spec.carried : [];
    const equipped = index === 0 ? spec.equipped : [];
    const character = buildCharacter(row, index, items, pools, carried, equipped);
    characters.set(character.name, character);
  });
  return {
    account: spec.account,
    accountMaterials: materialStorage(spec, categories, items),
    wallet: [...spec.wallet].filter(([id]) => currencies.has(id)).map(([id, value]) => ({
      id,
      value,
    })),
    bank: bank(spec, pools, items, names),
    sharedInventory: spec.sharedInventory,
    characters,
    legendaryArmory: spec.armory,
  };
}

/** Item ids to draw slots from, grouped by how they stack. */
interface SlotPools {
  readonly stackable: readonly number[];
  readonly gear: readonly number[];
  readonly armor: readonly number[];
  readonly weapons: readonly number[];
  readonly bags: readonly number[];
  readonly valuable: readonly number[];
}

function slotPools(items: ReadonlyMap<number, ItemRecord>): SlotPools {
  const stackable: number[] = [];
  const gear: number[] = [];
  const armor: number[] = [];
  const weapons: number[] = [];
  const bags: number[] = [];
  for (const item of items.values()) {
    if (MARKET_ITEM_IDS.has(item.id)) continue;
    if (item.type === "Bag" && typeof item.details?.size === "number") bags.push(item.id);
    else if (GEAR.has(item.type) && item.rarity !== "Legendary") {
      gear.push(item.id);
      if (item.type === "Armor") armor.push(item.id);
      if (item.type === "Weapon") weapons.push(item.id);
    } else if (STACKABLE.has(item.type)) stackable.push(item.id);
  }
  const valuable = [
    WELL_KNOWN.globOfEctoplasm,
    WELL_KNOWN.mysticCoin,
    WELL_KNOWN.orichalcumIngot,
    ...T6_MATERIAL_IDS,
  ];
  return { stackable, gear, armor, weapons, bags, valuable };
}

function materialStorage(
  spec: AccountSpec,
  categories: readonly MaterialCategoryRecord[],
  items: ReadonlyMap<number, ItemRecord>,
): AccountMaterialRecord[] {
  const ordered = [...categories].sort((a, b) => a.order - b.order);
  // One row per item: an id listed in two categories (97105 is) is stored once, in the first.
  const listed = new Set<number>();
  return ordered.flatMap((category) =>
    category.items.filter((id) => !listed.has(id) && listed.add(id)).map((id) => {
      const random = seeded(id, "storage", ...spec.seed);
      const count = spec.stored.get(id) ??
        (random.chance(0.45) ? 0 : random.chance(0.8) ? random.int(1, 250) : random.int(251, 1500));
      const bound = items.get(id)?.flags.includes("AccountBound") === true;
      return bound
        ? { id, category: category.id, binding: "Account" as const, count }
        : { id, category: category.id, count };
    })
  );
}

function bank(
  spec: AccountSpec,
  pools: SlotPools,
  items: ReadonlyMap<number, ItemRecord>,
  characterNames: readonly string[],
): (ItemSlotRecord | null)[] {
  const tabs = 6;
  const slots: (ItemSlotRecord | null)[] = [...spec.bankHead];
  for (let index = slots.length; index < tabs * 30; index++) {
    const random = seeded("bank", index, ...spec.seed);
    slots.push(random.chance(0.4) ? null : randomSlot(random, pools, items, characterNames));
  }
  return slots;
}

function buildCharacter(
  [name, race, gender, profession, level, crafting]: CharacterRow,
  index: number,
  items: ReadonlyMap<number, ItemRecord>,
  pools: SlotPools,
  carried: readonly ItemSlotRecord[],
  equipped: readonly EquipmentRecord[],
): FakeCharacter {
  const random = seeded(name, "character");
  const created = new Date(Date.UTC(2014, 2, 18 + index * 97, 19, 42 + index));
  const record: CharacterRecord = {
    name,
    race,
    gender,
    profession,
    level,
    ...(random.chance(0.7) ? { guild: random.pick(GUILDS) } : {}),
    age: random.int(36_000, 3_600_000),
    last_modified: new Date(Date.UTC(2026, 10, 1 + (index % 27), 12, index * 3)).toISOString()
      .replace(".000Z", "Z"),
    created: created.toISOString().replace(".000Z", "Z"),
    deaths: random.int(0, 4_000),
    ...(random.chance(0.6) ? { title: random.int(1, 400) } : {}),
    crafting: craftingOf(crafting),
    backstory: [
      `${random.int(1, 30)}-${random.int(100, 200)}`,
      `${random.int(7, 9)}-${random.int(50, 60)}`,
    ],
  };
  const bagSlots = 5 + (index % 4);
  const bags: (BagRecord | null)[] = [];
  for (let bagIndex = 0; bagIndex < bagSlots; bagIndex++) {
    const bagRandom = seeded(name, "bag", bagIndex);
    if (bagIndex > 0 && bagRandom.chance(0.15)) {
      bags.push(null);
      continue;
    }
    const bagId = bagIndex === 0 && index === 0
      ? WELL_KNOWN.reinforcedOlmakhanBandolier
      : bagRandom.pick(pools.bags);
    const sizeValue = items.get(bagId)?.details?.size;
    const size = typeof sizeValue === "number" ? sizeValue : 20;
    const inventory: (ItemSlotRecord | null)[] = [];
    for (let slot = 0; slot < size; slot++) {
      const spelled = bagIndex === 0 ? carried[slot] : undefined;
      if (spelled !== undefined) {
        inventory.push(spelled);
        continue;
      }
      const slotRandom = seeded(name, "slot", bagIndex, slot);
      inventory.push(
        slotRandom.chance(0.45) ? null : randomSlot(slotRandom, pools, items, [name]),
      );
    }
    bags.push({ id: bagId, size, inventory });
  }
  return { name, record, inventory: { bags }, equipment: [...gearOf(name, pools), ...equipped] };
}

/**
 * What a character wears: armor in every slot and a main-hand weapon, drawn from the world's
 * non-legendary gear with a stream of its own (the bags' draws stay as they were).
 */
function gearOf(name: string, pools: SlotPools): EquipmentRecord[] {
  const random = seeded(name, "equipment");
  const worn: EquipmentRecord[] = [];
  if (pools.armor.length > 0) {
    for (const slot of ARMOR_SLOTS) {
      worn.push({ id: random.pick(pools.armor), slot, location: "Equipped", tabs: [1] });
    }
  }
  if (pools.weapons.length > 0) {
    worn.push({
      id: random.pick(pools.weapons),
      slot: "WeaponA1",
      location: "Equipped",
      tabs: [1],
    });
  }
  return worn;
}

function craftingOf(spec: string): CraftingRecord[] {
  if (spec === "") return [];
  return spec.split(",").map((entry, index) => {
    const [discipline = "Chef", rating = "0"] = entry.split(":");
    return { discipline, rating: Number(rating), active: index === 0 };
  });
}

function randomSlot(
  random: Random,
  pools: SlotPools,
  items: ReadonlyMap<number, ItemRecord>,
  owners: readonly string[],
): ItemSlotRecord | null {
  const roll = random.next();
  const id = roll < 0.15
    ? random.pick(pools.valuable)
    : roll < 0.6
    ? random.pick(pools.stackable)
    : random.pick(pools.gear);
  const item = items.get(id);
  if (item === undefined) return null;
  const accountBound = item.flags.includes("AccountBound");
  if (!GEAR.has(item.type)) {
    const count = random.chance(0.3) ? 250 : random.int(1, 249);
    return accountBound ? { id, count, binding: "Account" } : { id, count };
  }
  const suffix = item.details?.suffix_item_id;
  const upgrades = typeof suffix === "number" && random.chance(0.6) ? { upgrades: [suffix] } : {};
  const infusions = item.rarity === "Ascended" && random.chance(0.5) ? { infusions: [49424] } : {};
  if (accountBound) return { id, count: 1, ...upgrades, ...infusions, binding: "Account" };
  if (item.flags.includes("SoulBindOnUse") && random.chance(0.5)) {
    return {
      id,
      count: 1,
      ...upgrades,
      ...infusions,
      binding: "Character",
      bound_to: random.pick(owners),
    };
  }
  return { id, count: 1, ...upgrades, ...infusions };
}
