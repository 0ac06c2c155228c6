import assert from "node:assert/strict";
import { tallyHoldings } from "../../src/account/tally.ts";

const SOURCES = {
  materialStorage: [
    { id: 19721, category: 29, count: 1_234 },
    { id: 19675, category: 29, count: 0 },
    { id: 24295, category: 5, count: 312 },
  ],
  bank: [
    { id: 19721, count: 250 },
    null,
    { id: 19721, count: 16 },
    { id: 29169, count: 1 },
  ],
  sharedInventory: [null, { id: 19675, count: 3, binding: "Account" }],
  characters: [
    {
      name: "Zoë Ironfist",
      bags: [
        { id: 87225, size: 3, inventory: [{ id: 19721, count: 5 }, null, { id: 19721, count: 2 }] },
        null,
      ],
    },
    {
      name: "Kael Thornhollow",
      bags: [{ id: 8932, size: 1, inventory: [{ id: 24295, count: 9 }] }],
      equipment: [
        { id: 29169, location: "Armory" },
        { id: 30703, location: "EquippedFromLegendaryArmory" },
        { id: 30704, location: "LegendaryArmory" },
        { id: 48073, location: "Equipped" },
        { id: 48073 },
      ],
    },
    { name: "Tamsin Halloway", bags: [] },
  ],
};

Deno.test("tallyHoldings() sums every stack over storage, bank, shared slots and bags", () => {
  const holdings = tallyHoldings(SOURCES);
  assert.deepEqual(
    [...holdings.counts].sort(([a], [b]) => a - b),
    [[19675, 3], [19721, 1_507], [24295, 321], [29169, 2], [48073, 2]],
  );
  assert.equal(holdings.counts.has(30703), false, "lent by the legendary armory: not held");
  assert.equal(holdings.counts.has(30704), false);
  assert.equal(holdings.characters, 3);
  assert.equal(holdings.counts.get(19721), 1_507);
  assert.equal(holdings.counts.has(30703), false, "not held: absent");
  assert.equal(holdings.counts.has(87225), false, "an equipped bag is not an item in a bag");
});

Deno.test("tallyHoldings() says where each item lies, one entry per source or character", () => {
  const holdings = tallyHoldings(SOURCES);
  assert.deepEqual(holdings.places.get(19721), [
    { source: "material_storage", count: 1_234 },
    { source: "bank", count: 266 },
    { source: "character", character: "Zoë Ironfist", count: 7 },
  ]);
  assert.deepEqual(holdings.places.get(19675), [{ source: "shared_inventory", count: 3 }]);
  assert.deepEqual(holdings.places.get(29169), [
    { source: "bank", count: 1 },
    { source: "equipment", character: "Kael Thornhollow", count: 1 },
  ]);
  assert.equal(holdings.places.has(19685), false);
});

Deno.test("tallyHoldings() of an empty account is empty", () => {
  const holdings = tallyHoldings({
    materialStorage: [],
    bank: [],
    sharedInventory: [],
    characters: [],
  });
  assert.equal(holdings.counts.size, 0);
  assert.equal(holdings.characters, 0);
});
