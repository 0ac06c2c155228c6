import assert from "node:assert/strict";
import { CRAFT_MARKET_RECIPE_IDS } from "./crafting_market.ts";
import { buildWorld, type FakeWorld, getWorld } from "./world.ts";
import { createFakeGw2 } from "../fake.ts";
import {
  FILLER_COUNT,
  FILLER_FIRST_ID,
  GEN1_LEGENDARY_IDS,
  NAMED_GIFT_IDS,
  PRECURSOR_IDS,
  REPRESENTATIVE_IDS,
  T6_MATERIAL_IDS,
  THIN_BOOK_IDS,
  WELL_KNOWN,
} from "./well_known.ts";
import { isTradeable } from "./prices.ts";
import type { ItemSlotRecord } from "./types.ts";

function snapshot(world: FakeWorld): string {
  return JSON.stringify({
    items: [...world.items.values()],
    recipes: [...world.recipes.values()],
    classicRecipes: [...world.classicRecipes.values()],
    prices: [...world.prices.values()],
    materials: [...world.materials.values()],
    currencies: [...world.currencies.values()],
    account: world.account,
    accountMaterials: world.accountMaterials,
    wallet: world.wallet,
    bank: world.bank,
    sharedInventory: world.sharedInventory,
    characters: [...world.characters.values()],
  });
}

function name(world: FakeWorld, id: number): string | undefined {
  return world.items.get(id)?.name;
}

Deno.test("buildWorld() produces the same bytes on every build", () => {
  assert.equal(snapshot(buildWorld()), snapshot(buildWorld()));
});

Deno.test("getWorld() builds once and every fake shares it", () => {
  assert.equal(getWorld(), getWorld());
  assert.equal(createFakeGw2().world, createFakeGw2().world);
});

Deno.test("getWorld() holds the gen-1 legendaries, precursors and gifts with real names", () => {
  const world = getWorld();
  const legendaries = GEN1_LEGENDARY_IDS.map((id) => name(world, id));
  assert.deepEqual(legendaries, [
    "Frostfang",
    "Kudzu",
    "The Dreamer",
    "Incinerator",
    "The Minstrel",
    "Eternity",
    "The Juggernaut",
    "Kamohoali'i Kotaki",
    "The Moot",
    "Quip",
    "The Predator",
    "Meteorlogicus",
    "The Flameseeker Prophecies",
    "Frenzy",
    "The Bifrost",
    "Bolt",
    "Rodgort",
    "Kraitkin",
    "Howler",
    "Sunrise",
    "Twilight",
  ]);
  for (const id of GEN1_LEGENDARY_IDS) {
    assert.equal(world.items.get(id)?.rarity, "Legendary");
    assert.equal(world.items.get(id)?.type, "Weapon");
  }
  assert.equal(PRECURSOR_IDS.length, 20);
  for (const id of PRECURSOR_IDS) assert.equal(world.items.get(id)?.rarity, "Exotic");
  assert.equal(name(world, WELL_KNOWN.dawn), "Dawn");
  assert.equal(name(world, WELL_KNOWN.dusk), "Dusk");
  assert.equal(NAMED_GIFT_IDS.length, 20);
  for (const id of NAMED_GIFT_IDS) assert.match(name(world, id) ?? "", /^Gift of /u);
  assert.equal(name(world, WELL_KNOWN.giftOfSunrise), "Gift of Sunrise");
});

Deno.test("getWorld() holds the named legendary materials with real ids", () => {
  const world = getWorld();
  const expected: Record<number, string> = {
    19674: "Gift of Mastery",
    19626: "Gift of Fortune",
    19672: "Gift of Might",
    19673: "Gift of Magic",
    19675: "Mystic Clover",
    19721: "Glob of Ectoplasm",
    19976: "Mystic Coin",
    19676: "Icy Runestone",
    19925: "Obsidian Shard",
    20796: "Philosopher's Stone",
    20797: "Bloodstone Shard",
    20852: "Eldritch Scroll",
    20799: "Mystic Crystal",
    19701: "Orichalcum Ore",
    19685: "Orichalcum Ingot",
    24295: "Vial of Powerful Blood",
    24277: "Pile of Crystalline Dust",
    24283: "Powerful Venom Sac",
    24300: "Elaborate Totem",
    24289: "Armored Scale",
    24351: "Vicious Claw",
    24358: "Ancient Bone",
    24357: "Vicious Fang",
  };
  for (const [id, itemName] of Object.entries(expected)) {
    assert.equal(name(world, Number(id)), itemName, `item ${id}`);
  }
  assert.equal(REPRESENTATIVE_IDS.length, 51);
  assert.equal(new Set(REPRESENTATIVE_IDS).size, REPRESENTATIVE_IDS.length);
  for (const id of REPRESENTATIVE_IDS) assert.ok(world.items.has(id), `representative ${id}`);
});

Deno.test("getWorld() has recipe 21 making Orichalcum Ingot from two ore, in both schemas", () => {
  const world = getWorld();
  const recipe = world.recipes.get(WELL_KNOWN.orichalcumIngotRecipe);
  assert.equal(recipe?.output_item_id, WELL_KNOWN.orichalcumIngot);
  assert.deepEqual(recipe?.ingredients, [{ type: "Item", id: WELL_KNOWN.orichalcumOre, count: 2 }]);
  assert.equal(recipe?.chat_link, "[&CRUAAAA=]");
  const classic = world.classicRecipes.get(21);
  assert.deepEqual(classic?.ingredients, [{ item_id: 19701, count: 2 }]);
  assert.deepEqual(classic?.guild_ingredients, []);
});

Deno.test("getWorld() has the curated sizes and generated filler", () => {
  const world = getWorld();
  // The 2023 snapshot's 539 main items and 1,138 legendary-tree items (1,167 ids), 29
  // Obsidian-armor ids the snapshot predates, and the market's Weak Potion of Dredge Slaying;
  // its 1,048 and 410 recipes (1,274 ids) and the potion's.
  assert.equal(world.curatedItemIds.length, 1_197);
  assert.equal(world.recipes.size, 1_275 + CRAFT_MARKET_RECIPE_IDS.length);
  assert.equal(world.classicRecipes.size, 1_275 + CRAFT_MARKET_RECIPE_IDS.length);
  assert.equal(world.materials.size, 9);
  assert.deepEqual([...world.materials.keys()], [5, 6, 29, 30, 37, 38, 46, 49, 50]);
  assert.equal(world.currencies.size, 69);
  assert.equal(world.fillerItemIds.length, FILLER_COUNT);
  assert.ok(FILLER_COUNT >= 5_000);
  assert.equal(world.fillerItemIds[0], FILLER_FIRST_ID);
  assert.equal(world.fillerItemIds.at(-1), FILLER_FIRST_ID + FILLER_COUNT - 1);
  assert.equal(
    world.items.size,
    world.curatedItemIds.length + world.standInItemIds.length + world.fillerItemIds.length +
      world.craftMarketItemIds.length + world.achievementItemIds.length,
  );
  const ids = [...world.items.keys()];
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "items iterate in ascending id order");
});

Deno.test("getWorld() resolves every item a recipe, material category or slot names", () => {
  const world = getWorld();
  for (const recipe of world.recipes.values()) {
    assert.ok(world.items.has(recipe.output_item_id), `output of recipe ${recipe.id}`);
    for (const ingredient of recipe.ingredients) {
      if (ingredient.type === "Item") assert.ok(world.items.has(ingredient.id));
    }
  }
  for (const category of world.materials.values()) {
    for (const id of category.items) assert.ok(world.items.has(id), `material ${id}`);
  }
  const slots: (ItemSlotRecord | null)[] = [...world.bank, ...world.sharedInventory];
  for (const character of world.characters.values()) {
    for (const bag of character.inventory.bags) {
      if (bag !== null) slots.push(...bag.inventory);
    }
  }
  for (const slot of slots) {
    if (slot !== null) assert.ok(world.items.has(slot.id), `slot item ${slot.id}`);
  }
});

Deno.test("getWorld() computes chat links and synthesizes icons in the real formats", () => {
  const world = getWorld();
  assert.equal(world.items.get(19684)?.chat_link, "[&AgHkTAAA]");
  assert.equal(world.items.get(WELL_KNOWN.globOfEctoplasm)?.chat_link, "[&AgEJTQAA]");
  assert.equal(world.recipes.get(19)?.chat_link, "[&CRMAAAA=]");
  assert.equal(world.recipes.get(7313)?.chat_link, "[&CZEcAAA=]");
  const icon = /^https:\/\/render\.guildwars2\.com\/file\/[0-9A-F]{40}\/\d+\.png$/u;
  for (const item of world.items.values()) assert.match(item.icon, icon);
  for (const currency of world.currencies.values()) assert.match(currency.icon, icon);
});

Deno.test("getWorld() gives records realistic weight: details, descriptions, game types", () => {
  const world = getWorld();
  const sunrise = world.items.get(WELL_KNOWN.sunrise);
  assert.equal(typeof sunrise?.details?.type, "string");
  assert.ok((sunrise?.description?.length ?? 0) > 100);
  assert.deepEqual(sunrise?.game_types, ["Activity", "Wvw", "Dungeon", "Pve"]);
  const described = [...world.items.values()].filter((item) => item.description !== undefined);
  const average = described.reduce((sum, item) => sum + (item.description?.length ?? 0), 0) /
    described.length;
  assert.ok(average > 40, `average description length ${average}`);
  const compact = JSON.stringify([...world.items.values()]).length / world.items.size;
  assert.ok(compact > 400, `average compact item size ${compact}`);
});

Deno.test("getWorld() builds filler names combinatorially for name search", () => {
  const world = getWorld();
  const names = world.fillerItemIds.map((id) => name(world, id) ?? "");
  assert.ok(names.includes("Berserker's Orichalcum Greatsword"));
  assert.ok(names.some((n) => n.startsWith("Superior Sigil of ")));
  assert.ok(names.some((n) => n.startsWith("Superior Rune of ")));
  assert.ok(names.filter((n) => n.includes("Greatsword")).length >= 50);
  assert.ok(new Set(names).size > names.length / 2);
});

Deno.test("getWorld() prices tradeable items only, with real and plausible values", () => {
  const world = getWorld();
  for (const item of world.items.values()) {
    assert.equal(world.prices.has(item.id), isTradeable(item), `price of ${item.id}`);
  }
  assert.equal(world.prices.has(WELL_KNOWN.mysticClover), false, "clovers are account bound");
  assert.equal(world.prices.has(WELL_KNOWN.giftOfMastery), false);
  assert.equal(world.prices.has(WELL_KNOWN.mysticCoin), true, "NoSell is vendor-only");
  const ecto = world.prices.get(WELL_KNOWN.globOfEctoplasm);
  assert.deepEqual([ecto?.buys.unit_price, ecto?.sells.unit_price], [2603, 2797]);
  assert.deepEqual(world.prices.get(19684), {
    id: 19684,
    whitelisted: false,
    buys: { quantity: 145975, unit_price: 7018 },
    sells: { quantity: 126, unit_price: 7019 },
  });
  assert.deepEqual(world.prices.get(19709)?.buys, { quantity: 0, unit_price: 0 });
  for (const id of GEN1_LEGENDARY_IDS) {
    assert.ok((world.prices.get(id)?.sells.unit_price ?? 0) >= 10_000_000, `legendary ${id}`);
  }
  for (const id of PRECURSOR_IDS) {
    const sell = world.prices.get(id)?.sells.unit_price ?? 0;
    assert.ok(sell >= 1_000_000 && sell <= 20_000_000, `precursor ${id}: ${sell}`);
  }
  for (const id of T6_MATERIAL_IDS) {
    const sell = world.prices.get(id)?.sells.unit_price ?? 0;
    assert.ok(sell >= 1_500 && sell <= 12_000, `T6 ${id}: ${sell}`);
  }
  let emptyBuySides = 0;
  for (const price of world.prices.values()) {
    if (price.buys.unit_price === 0) emptyBuySides++;
    // A sold-out sell side (the crafting market's Sample Dust) has no spread to check.
    else if (price.sells.unit_price > 0) {
      assert.ok(price.buys.unit_price < price.sells.unit_price, `spread of ${price.id}`);
    }
  }
  assert.ok(emptyBuySides > 1 && emptyBuySides < world.prices.size / 10);
});

Deno.test("getWorld() has a many-character account with bags, bank, storage and wallet", () => {
  const world = getWorld();
  const names = [...world.characters.keys()];
  assert.ok(names.length >= 12);
  assert.ok(names.includes("Zoë Ironfist"));
  assert.ok(names.some((n) => n.includes(" ")));
  assert.ok(names.some((n) => /[^\x20-\x7e]/u.test(n)));
  let nullBags = 0;
  let nullSlots = 0;
  for (const character of world.characters.values()) {
    assert.equal(character.record.name, character.name);
    for (const bag of character.inventory.bags) {
      if (bag === null) {
        nullBags++;
        continue;
      }
      assert.equal(bag.inventory.length, bag.size);
      assert.equal(world.items.get(bag.id)?.details?.size, bag.size);
      nullSlots += bag.inventory.filter((slot) => slot === null).length;
    }
  }
  assert.ok(nullBags > 0 && nullSlots > 0);
  assert.equal(world.bank.length % 30, 0);
  assert.ok(world.bank.includes(null));
  assert.ok(world.sharedInventory.includes(null));
  const storable = new Set([...world.materials.values()].flatMap((category) => category.items));
  assert.deepEqual(new Set(world.accountMaterials.map((row) => row.id)), storable);
  assert.equal(world.accountMaterials.length, storable.size);
  assert.ok(world.accountMaterials.some((row) => row.count === 0));
  for (const row of world.wallet) assert.ok(world.currencies.has(row.id));
  assert.equal(world.wallet[0]?.id, 1);
});

Deno.test("getWorld() gives the account legendary-relevant holdings", () => {
  const world = getWorld();
  const stored = new Map(world.accountMaterials.map((row) => [row.id, row.count]));
  assert.ok((stored.get(WELL_KNOWN.globOfEctoplasm) ?? 0) > 250);
  assert.ok((stored.get(WELL_KNOWN.mysticClover) ?? 0) > 0);
  assert.ok((stored.get(WELL_KNOWN.obsidianShard) ?? 0) > 0);
  assert.ok(T6_MATERIAL_IDS.every((id) => stored.has(id)));
  const held = new Set(
    [...world.bank, ...world.sharedInventory].flatMap((slot) => slot === null ? [] : [slot.id]),
  );
  assert.ok(held.has(WELL_KNOWN.dawn), "a precursor in the bank");
  assert.ok(held.has(WELL_KNOWN.giftOfMight) && held.has(WELL_KNOWN.giftOfMetal));
  assert.ok(held.has(WELL_KNOWN.eldritchScroll));
});

Deno.test("getWorld() is frozen against in-place edits by tests", () => {
  const world = getWorld();
  // The cast reaches the mutating method the readonly type hides, to prove it fails at run time.
  assert.throws(() => (world.bank as unknown[]).sort(), TypeError);
  const item = world.items.get(WELL_KNOWN.globOfEctoplasm);
  assert.ok(item !== undefined && Object.isFrozen(item) && Object.isFrozen(item.flags));
  assert.ok(Object.isFrozen(world.characters.get("Zoë Ironfist")?.inventory.bags));
});

Deno.test("getWorld() has a 19-character veteran account with legendary materials in every source", () => {
  const { veteran, wellKnown } = getWorld();
  assert.equal(veteran.characters.size, 19);
  assert.equal(new Set([...veteran.characters.keys()]).size, 19);
  for (const name of veteran.characters.keys()) assert.ok(!getWorld().characters.has(name));
  const inStorage = veteran.accountMaterials.find((row) => row.id === wellKnown.mysticClover);
  assert.ok((inStorage?.count ?? 0) > 0);
  const slotIds = (slots: readonly (ItemSlotRecord | null)[]) =>
    new Set(slots.flatMap((slot) => slot === null ? [] : [slot.id]));
  assert.ok(slotIds(veteran.bank).has(wellKnown.dusk), "a precursor in the bank");
  assert.ok(slotIds(veteran.sharedInventory).has(wellKnown.eldritchScroll));
  const bags = [...veteran.characters.values()].flatMap((character) =>
    character.inventory.bags.flatMap((bag) => bag?.inventory ?? [])
  );
  const carried = slotIds(bags);
  assert.ok(carried.has(wellKnown.globOfEctoplasm) && carried.has(wellKnown.mysticClover));
  assert.ok(T6_MATERIAL_IDS.some((id) => carried.has(id)), "tier-6 materials in bags");
  assert.ok(bags.filter((slot) => slot !== null).length > 1_000, "realistically full bags");
});

Deno.test("getWorld() serves every legendary category's real records, and stand-ins for the Obsidian armor", () => {
  const world = getWorld();
  const expected: [number, string, string][] = [
    [WELL_KNOWN.astralaria, "Astralaria", "Weapon"],
    [WELL_KNOWN.aurenesBite, "Aurene's Bite", "Weapon"],
    [WELL_KNOWN.perfectedEnvoyHelmet, "Perfected Envoy Helmet", "Armor"],
    [WELL_KNOWN.aurora, "Aurora", "Trinket"],
    [WELL_KNOWN.adInfinitum, "Ad Infinitum", "Back"],
    [WELL_KNOWN.legendaryRune, "Legendary Rune", "UpgradeComponent"],
    [WELL_KNOWN.legendarySigil, "Legendary Sigil", "UpgradeComponent"],
    [WELL_KNOWN.obsidianLightCrown, "Obsidian Light Crown", "Armor"],
  ];
  for (const [id, itemName, type] of expected) {
    const item = world.items.get(id);
    assert.deepEqual([item?.name, item?.type, item?.rarity], [itemName, type, "Legendary"]);
    assert.ok(world.curatedItemIds.includes(id), `${itemName} is curated, not generated`);
  }
  // Tradeability drives prices: gen-3 weapons are tradeable, the rest account bound.
  assert.ok((world.prices.get(WELL_KNOWN.aurenesBite)?.sells.unit_price ?? 0) >= 10_000_000);
  for (const id of [WELL_KNOWN.astralaria, WELL_KNOWN.aurora, WELL_KNOWN.obsidianLightCrown]) {
    assert.equal(world.prices.has(id), false, `${id} is account bound`);
  }
  // The Obsidian crown's stand-in takes its slot and weight from the Perfected Envoy armor.
  assert.deepEqual(
    [
      world.items.get(WELL_KNOWN.obsidianLightCrown)?.details?.type,
      world.items.get(WELL_KNOWN.obsidianLightCrown)?.details?.weight_class,
    ],
    ["Helm", "Light"],
  );
  assert.equal(world.items.get(101595)?.name, "Gift of Inner Nayos");
  // The official recipes of the trees: Dawn's (precursor crafting) and a gen-3 precursor's.
  assert.ok(world.recipesByOutput.has(WELL_KNOWN.dawn));
  assert.ok(world.recipesByOutput.has(96357), "Dragon's Bite");
  // A coin vendor's ware trades near the vendor's price (1,496 coin per 10).
  const reagent = world.prices.get(WELL_KNOWN.thermocatalyticReagent)?.sells.unit_price ?? 0;
  assert.ok(reagent >= 119 && reagent <= 187, `Thermocatalytic Reagent at ${reagent}`);
});

Deno.test("getWorld() gives the veteran account materials beyond generation 1", () => {
  const { veteran } = getWorld();
  const held = new Set(
    [
      ...veteran.bank,
      ...veteran.sharedInventory,
      ...[...veteran.characters.values()].flatMap(
        (character) => character.inventory.bags.flatMap((bag) => bag?.inventory ?? []),
      ),
    ].flatMap((slot) => slot === null ? [] : [slot.id]),
  );
  // Gen 2, gen 3 (a precursor), PvE armor, trinket, back, rune: one part of each.
  for (const id of [73239, 96033, 96357, 78866, 73248, 81796, 74377, 77451]) {
    assert.ok(held.has(id), `the veteran holds ${id}`);
  }
});

Deno.test("world: every priced item has an order book consistent with its price, thin ones thin, deterministic", () => {
  const world = getWorld();
  const thin = new Set(THIN_BOOK_IDS);
  let walks = 0;
  for (const [id, price] of world.prices) {
    const book = world.listings.get(id);
    assert.ok(book !== undefined, `${id} has a book`);
    for (
      const [side, levels, top, order] of [
        ["sells", book.sells, price.sells, 1],
        ["buys", book.buys, price.buys, -1],
      ] as const
    ) {
      if (top.quantity === 0 || top.unit_price === 0) {
        assert.deepEqual(levels, [], `${id} ${side}: empty, as its price says`);
        continue;
      }
      assert.equal(levels[0]?.unit_price, top.unit_price, `${id} ${side}: top = price`);
      assert.equal(levels.reduce((sum, level) => sum + level.quantity, 0), top.quantity);
      levels.forEach((level, index) => {
        assert.ok(level.quantity >= 1 && level.listings >= 1 && level.listings <= level.quantity);
        const next = levels[index + 1];
        if (next !== undefined) assert.ok(order * (next.unit_price - level.unit_price) > 0);
      });
    }
    if (thin.has(id)) {
      assert.ok(book.sells.length <= 5 && price.sells.quantity <= 160, `${id} is thin`);
    }
    if (book.sells.length > 1) walks++;
  }
  assert.ok(walks > 1_000, "most books have more than one level");
  assert.deepEqual(world.listings.get(WELL_KNOWN.dawn), buildWorld().listings.get(WELL_KNOWN.dawn));
});
