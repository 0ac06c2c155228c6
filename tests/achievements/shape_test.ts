/**
 * `priory_achievements`' rows from gathered records, progress, names and prices (pure): the
 * planted half-done collection's missing bits and their cost, the rows without the account's
 * progress, the budget of listed bits, rewards and chains.
 */
import assert from "node:assert/strict";
import {
  type Lookups,
  MISSING_BUDGET,
  MISSING_PER_ROW,
  missingBits,
  type Progress,
  type RowInput,
  shapeAchievements,
  toPrice,
  wanted,
} from "../../src/achievements/shape.ts";
import {
  AccountAchievementSchema,
  type Achievement,
  AchievementSchema,
} from "../../src/gw2/schemas_achievements.ts";
import { getWorld } from "../fake_gw2/mod.ts";
import { PLANTED } from "../fake_gw2/world/achievements.ts";

const world = getWorld();
const fake = world.achievements;

function record(id: number): Achievement {
  return AchievementSchema.parse(fake.achievements.get(id));
}

const progress: Progress = new Map(
  fake.main.achievements.map((entry) => [entry.id, AccountAchievementSchema.parse(entry)]),
);

const lookups: Lookups = {
  itemName: (id) => world.items.get(id)?.name,
  unit: (id) => world.prices.get(id)?.sells.unit_price,
  skinName: (id) => fake.skins.get(id)?.name,
  mini: (id) => {
    const mini = fake.minis.get(id);
    return mini === undefined ? undefined : { name: mini.name, itemId: mini.item_id };
  },
  achievementName: (id) => fake.achievements.get(id)?.name,
};

const none = { ids: [], more: 0 };

Deno.test("shape: the half-done collection lists its 27 missing items and what buying them costs", () => {
  const cosmos = record(PLANTED.halfDone);
  const [row] = shapeAchievements([{ record: cosmos, chain: none }], progress, lookups);
  assert.ok(row !== undefined);
  assert.equal(row.done, false);
  assert.equal(row.progress, 27);
  assert.equal(row.of, 54);
  // The odd bits are the missing ones (the fake planted the even ones).
  const expected = (cosmos.bits ?? []).filter((_, index) => index % 2 === 1).map((bit) => {
    const id = bit.id ?? 0;
    const unit = world.prices.get(id)?.sells.unit_price;
    return {
      type: "Item",
      id,
      name: world.items.get(id)?.name,
      ...(unit === undefined ? {} : { unit }),
    };
  });
  assert.equal(expected.length, 27);
  assert.deepEqual(row.missing, expected);
  const priced = expected.filter((bit) => bit.unit !== undefined);
  assert.ok(priced.length > 0 && priced.length < 27, "some trade, most do not");
  assert.equal(row.missingCost, priced.reduce((sum, bit) => sum + (bit.unit ?? 0), 0));
  assert.equal(row.missingMore, undefined);
  assert.deepEqual(row.rewards, [
    { type: "Item", id: 72083, name: "Gift of the Cosmos", count: 1 },
  ]);
});

Deno.test("shape: a done collection misses nothing; one not begun misses everything", () => {
  const rows = shapeAchievements(
    [PLANTED.auroraAwakening, 4805].map((id) => ({ record: record(id), chain: none })),
    progress,
    lookups,
  );
  assert.deepEqual([rows[0]?.done, rows[0]?.progress, rows[0]?.missing, rows[0]?.missingCost], [
    true,
    7,
    [],
    0,
  ]);
  assert.deepEqual([rows[1]?.done, rows[1]?.progress, rows[1]?.missing.length], [false, 0, 8]);
});

Deno.test("shape: without the account's progress nothing is done and the whole collection is missing", () => {
  const [row] = shapeAchievements(
    [{ record: record(PLANTED.halfDone), chain: { ids: [PLANTED.auroraAwakening], more: 0 } }],
    undefined,
    lookups,
  );
  assert.equal("done" in (row ?? {}), false);
  assert.equal("progress" in (row ?? {}), false);
  assert.equal(row?.missing.length, 54);
  assert.deepEqual(row?.prerequisites, [{
    id: PLANTED.auroraAwakening,
    name: "Aurora: Awakening",
  }]);
});

Deno.test("shape: skins, minis and texts are named; a mini is priced by its item", () => {
  const [infinitum] = shapeAchievements(
    [{ record: record(PLANTED.adInfinitum), chain: none }],
    progress,
    lookups,
  );
  const skin = infinitum?.missing.find((bit) => bit.type === "Skin");
  assert.deepEqual(skin, { type: "Skin", id: 2377, name: fake.skins.get(2377)?.name });
  const device = record(PLANTED.astralariaDevice);
  const [all] = shapeAchievements([{ record: device, chain: none }], undefined, lookups);
  const mini = all?.missing.find((bit) => bit.type === "Minipet");
  assert.equal(mini?.name, fake.minis.get(354)?.name);
  const miniItem = fake.minis.get(354)?.item_id ?? 0;
  assert.equal(mini?.unit, world.prices.get(miniItem)?.sells.unit_price);
  const texts = record(50_008);
  const [tasks] = shapeAchievements([{ record: texts, chain: none }], undefined, lookups);
  assert.deepEqual(tasks?.missing[0], { type: "Text", name: texts.bits?.[0]?.text });
  assert.equal(tasks?.missing.length, 1, "the empty bit upstream sends is not a bit to do");
});

Deno.test("shape: rows share a budget of listed bits; the cost counts them all", () => {
  const ids = [2250, 2550, 2268, 2336, 2556];
  const rows: RowInput[] = ids.map((id) => ({ record: record(id), chain: none }));
  const shaped = shapeAchievements(rows, undefined, lookups);
  const listed = shaped.reduce((sum, row) => sum + row.missing.length, 0);
  assert.ok(listed <= MISSING_BUDGET, `${listed} listed`);
  for (const [index, row] of shaped.entries()) {
    const all = missingBits(rows[index]!.record);
    assert.equal(row.missing.length + (row.missingMore ?? 0), all.length);
    const cost = all.reduce((sum, bit) => sum + (lookups.unit(bit.id ?? 0) ?? 0), 0);
    assert.equal(row.missingCost, cost);
  }
  const [alone] = shapeAchievements([rows[1]!], undefined, lookups);
  assert.equal(alone?.missing.length, MISSING_PER_ROW);
  assert.equal(alone?.missingMore, 63 - MISSING_PER_ROW);
});

Deno.test("shape: what to read and price is only what is missing or rewarded", () => {
  const rows = [PLANTED.halfDone, PLANTED.auroraAwakening].map((id) => ({
    record: record(id),
    chain: none,
  }));
  const want = wanted(rows, progress);
  assert.equal(want.items.length, 27 + 2, "27 missing bits and two rewards");
  assert.deepEqual([want.skins, want.minis], [[], []]);
  assert.equal(toPrice(rows, progress, lookups).length, 27);
  const device = [{ record: record(PLANTED.astralariaDevice), chain: none }];
  assert.deepEqual(toPrice(device, progress, lookups), [], "done: nothing to buy");
  assert.equal(toPrice(device, undefined, lookups).length, 19, "18 items and the mini's item");
});

Deno.test("shape: prerequisites say whether each is done, and how many were left out", () => {
  const [row] = shapeAchievements(
    [{ record: record(4805), chain: { ids: [4412, 4035], more: 3 } }],
    progress,
    lookups,
  );
  assert.deepEqual(row?.prerequisites, [
    { id: 4412, name: "Coalescence II: The Gift", done: false },
    { id: 4035, name: "Coalescence I: Unbridled", done: true },
  ]);
  assert.equal(row?.prerequisitesMore, 3);
});
