import assert from "node:assert/strict";
import { findItems, MAX_PLACES_PER_ANSWER, MAX_PLACES_PER_ITEM } from "../../src/account/find.ts";
import { tallyHoldings } from "../../src/account/tally.ts";

const HOLDINGS = tallyHoldings({
  materialStorage: [{ id: 19976, category: 29, count: 85 }],
  bank: [{ id: 19976, count: 160 }, { id: 30704, count: 1 }],
  sharedInventory: [{ id: 19976, count: 25 }],
  characters: [
    {
      name: "Zoë Ironfist",
      bags: [{ id: 1, size: 2, inventory: [{ id: 19976, count: 9 }, { id: 19976, count: 1 }] }],
      equipment: [{ id: 30704, location: "Equipped" }, { id: 30703, location: "LegendaryArmory" }],
    },
    { name: "Kael", bags: [{ id: 1, size: 1, inventory: [{ id: 19976, count: 3 }] }] },
  ],
});

const NAMES = new Map([[19976, "Mystic Coin"], [30704, "Twilight"], [30703, "Sunrise"]]);
const UNITS = new Map([[19976, 16_448], [30704, 20_000_000]]);

Deno.test("findItems() lists every place holding an item, in place order, with total, unit and value", () => {
  const [coin, twilight, sunrise] = findItems(
    [19976, 30704, 30703],
    {
      holdings: HOLDINGS.places,
      armory: new Map([[30703, 1], [30704, 1]]),
      delivery: [{ id: 19976, count: 30 }, { id: 19976, count: 2 }],
      selling: [{ item_id: 19976, price: 16_448, quantity: 25 }, {
        item_id: 19976,
        price: 17_000,
        quantity: 5,
      }],
    },
    NAMES,
    UNITS,
  );
  assert.deepEqual(coin, {
    id: 19976,
    name: "Mystic Coin",
    total: 85 + 160 + 25 + 10 + 3 + 32 + 30,
    places: [
      { place: "materials", count: 85 },
      { place: "bank", count: 160 },
      { place: "shared", count: 25 },
      { place: "bags", count: 10, character: "Zoë Ironfist" },
      { place: "bags", count: 3, character: "Kael" },
      { place: "delivery", count: 32 },
      { place: "selling", count: 30 },
    ],
    unit: 16_448,
    value: 345 * 16_448,
  });
  assert.deepEqual(twilight?.places, [
    { place: "bank", count: 1 },
    { place: "equipped", count: 1, character: "Zoë Ironfist" },
    { place: "armory", count: 1 },
  ]);
  assert.equal(twilight?.total, 3);
  // Worn from the armory is the armory's one copy, not a second.
  assert.deepEqual(sunrise, {
    id: 30703,
    name: "Sunrise",
    total: 1,
    places: [{ place: "armory", count: 1 }],
  });
});

Deno.test("findItems() answers total 0 for an item held nowhere, and name null for an unknown id", () => {
  const found = findItems(
    [19721, 1, 19721],
    { holdings: HOLDINGS.places },
    new Map([[19721, "Glob of Ectoplasm"]]),
    new Map([[19721, 2797]]),
  );
  assert.deepEqual(found, [
    { id: 19721, name: "Glob of Ectoplasm", total: 0, places: [], unit: 2797, value: 0 },
    { id: 1, name: null, total: 0, places: [] },
  ]);
});

Deno.test("findItems() with a source unread counts the others", () => {
  const [coin] = findItems(
    [19976],
    { selling: [{ item_id: 19976, price: 1, quantity: 4 }] },
    NAMES,
    new Map(),
  );
  assert.deepEqual(coin, {
    id: 19976,
    name: "Mystic Coin",
    total: 4,
    places: [{ place: "selling", count: 4 }],
  });
});

Deno.test("findItems() keeps every account-wide place and the largest character rows past the bound", () => {
  const characters = Array.from({ length: 14 }, (_, index) => ({
    name: `C${index}`,
    bags: [{ id: 1, size: 1, inventory: [{ id: 19976, count: index + 1 }] }],
  }));
  const holdings = tallyHoldings({
    materialStorage: [{ id: 19976, category: 29, count: 85 }],
    bank: [{ id: 19976, count: 160 }],
    sharedInventory: [],
    characters,
  });
  const [coin] = findItems(
    [19976],
    {
      holdings: holdings.places,
      delivery: [{ id: 19976, count: 30 }],
    },
    NAMES,
    UNITS,
  );
  assert.equal(coin?.places.length, MAX_PLACES_PER_ITEM);
  assert.equal(coin?.more, 17 - MAX_PLACES_PER_ITEM);
  assert.equal(coin?.total, 85 + 160 + 105 + 30, "rows left off still count");
  assert.deepEqual(coin?.places.map((row) => row.character ?? row.place), [
    "materials",
    "bank",
    "C7",
    "C8",
    "C9",
    "C10",
    "C11",
    "C12",
    "C13",
    "delivery",
  ]);
});

Deno.test("findItems() shares a bound of place rows across a long answer: each item keeps its largest", () => {
  const ids = Array.from({ length: 100 }, (_, index) => 1_000 + index);
  const characters = Array.from({ length: 12 }, (_, index) => ({
    name: `C${index}`,
    bags: [{ id: 1, size: 1, inventory: ids.map((id) => ({ id, count: index + 1 })) }],
  }));
  const holdings = tallyHoldings({
    materialStorage: [],
    bank: ids.map((id) => ({ id, count: 500 })),
    sharedInventory: [],
    characters,
  });
  const found = findItems(ids, { holdings: holdings.places }, NAMES, UNITS);
  const rows = found.reduce((sum, item) => sum + item.places.length, 0);
  assert.ok(rows <= MAX_PLACES_PER_ANSWER, `${rows} rows`);
  for (const item of found) {
    assert.deepEqual(item.places, [{ place: "bank", count: 500 }], "the largest place kept");
    assert.equal(item.more, 12);
    assert.equal(item.total, 500 + 78, "rows left off still count");
  }
  const few = findItems(ids.slice(0, 3), { holdings: holdings.places }, NAMES, UNITS);
  assert.ok(few.every((item) => item.places.length === MAX_PLACES_PER_ITEM));
});
