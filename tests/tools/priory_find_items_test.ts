/**
 * `priory_find_items` over the real stack (the MCP handler, the GW2 client on in-memory KV, the
 * fake GW2 API): every place an item lies with exact counts, an item held nowhere, a name query in
 * German, the parts a key cannot read named with their scope while the rest answers, and the key
 * never in a result or a log line.
 */
import assert from "node:assert/strict";
import { TEST_KEYS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import type { FakeAccount } from "../fake_gw2/world/account.ts";
import { localizedRecords } from "../fake_gw2/world/localized.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";

type Place = { place: string; count: number; character?: string };
type Found = {
  id: number;
  name: string | null;
  total: number;
  places: Place[];
  more?: number;
  unit?: number;
  value?: number;
};
type Answer = { items: Found[]; unread?: { part: string; scope: string }[] };

async function find(app: TestApp, key: string, args: Record<string, unknown>): Promise<Answer> {
  await using client = await connectClient(app.handler, { headers: { "X-GW2-Key": key } });
  const result = await client.callTool({ name: "priory_find_items", arguments: args });
  assert.equal(result.isError, undefined, textOf(result));
  return result.structuredContent as Answer;
}

/** Units of `id` over an account's storage, bank, shared slots and bags: the fake's own data. */
function heldInWorld(account: FakeAccount, id: number): number {
  const slots = [
    ...account.bank,
    ...account.sharedInventory,
    ...[...account.characters.values()].flatMap((character) =>
      character.inventory.bags.flatMap((bag) => bag?.inventory ?? [])
    ),
  ];
  return (account.accountMaterials.find((row) => row.id === id)?.count ?? 0) +
    slots.reduce((sum, slot) => sum + (slot?.id === id ? slot.count : 0), 0);
}

Deno.test("priory_find_items: Mystic Coins, The Hunter and Sunrise lie in every kind of place, counted exactly", async () => {
  await using app = await startTestApp();
  const { items, unread } = await find(app, TEST_KEYS.veteran, {
    ids: [WELL_KNOWN.mysticCoin, WELL_KNOWN.theHunter, WELL_KNOWN.sunrise],
  });
  assert.equal(unread, undefined, "the veteran key reads every part");
  const [coin, hunter, sunrise] = items;
  const unit = (id: number) => app.fake.world.prices.get(id)?.sells.unit_price;
  assert.deepEqual(coin, {
    id: WELL_KNOWN.mysticCoin,
    name: "Mystic Coin",
    total: 2_135,
    places: [
      { place: "materials", count: 212 },
      { place: "bank", count: 428 },
      { place: "shared", count: 100 },
      { place: "bags", count: 250, character: "Aldric Stormvale" },
      { place: "bags", count: 86, character: "Cinder Vexlock" },
      { place: "bags", count: 250, character: "Gorrik Bladehorn" },
      { place: "bags", count: 100, character: "Kett Zapwhistle" },
      { place: "bags", count: 444, character: "Quen of the Verdant" },
      { place: "delivery", count: 20 },
      { place: "selling", count: 15 },
    ],
    more: 4,
    unit: unit(WELL_KNOWN.mysticCoin),
    value: 2_135 * (unit(WELL_KNOWN.mysticCoin) ?? 0),
  });
  // The total counts the four character rows left off too: the world's own sum, plus the box and
  // the listing.
  assert.equal(coin?.total, heldInWorld(app.fake.world.veteran, WELL_KNOWN.mysticCoin) + 20 + 15);
  assert.deepEqual(hunter?.places, [
    { place: "equipped", count: 1, character: "Aldric Stormvale" },
  ]);
  assert.equal(hunter?.total, 1);
  // Aldric wears Sunrise from the armory: the armory's one copy, not a second.
  assert.deepEqual(sunrise?.places, [{ place: "armory", count: 1 }]);
  assert.equal(sunrise?.total, 1);
  const kinds = new Set(items.flatMap((item) => item.places.map((place) => place.place)));
  assert.deepEqual([...kinds].sort(), [
    "armory",
    "bags",
    "bank",
    "delivery",
    "equipped",
    "materials",
    "selling",
    "shared",
  ]);
});

Deno.test("priory_find_items: an item held nowhere answers total 0; an unknown id has no name", async () => {
  await using app = await startTestApp();
  const { items } = await find(app, TEST_KEYS.full, {
    ids: [WELL_KNOWN.twilight, WELL_KNOWN.absentItem],
  });
  const unit = app.fake.world.prices.get(WELL_KNOWN.twilight)?.sells.unit_price;
  assert.deepEqual(items, [
    { id: WELL_KNOWN.twilight, name: "Twilight", total: 0, places: [], unit, value: 0 },
    { id: WELL_KNOWN.absentItem, name: null, total: 0, places: [] },
  ]);
});

Deno.test("priory_find_items: a name query in German finds the Mystic Coin, named in German", async () => {
  await using app = await startTestApp();
  const world = app.fake.world;
  await app.names.putMany([...world.items.values()]);
  await app.names.putMany([...localizedRecords(world, "de").items.values()], "de");
  const byName = await find(app, TEST_KEYS.full, { query: "mystische münze" });
  const byId = await find(app, TEST_KEYS.full, { ids: [WELL_KNOWN.mysticCoin] });
  const [first] = byName.items;
  assert.equal(first?.id, WELL_KNOWN.mysticCoin);
  assert.equal(first?.name, "Mystische Münze");
  assert.deepEqual({ ...first, name: "Mystic Coin" }, byId.items[0], "the same places and counts");
  assert.ok(byName.items.length <= 10, "at most ten matches");
  // With lang, every match is named in it.
  const english = await find(app, TEST_KEYS.full, { query: "mystische münze", lang: "en" });
  assert.equal(english.items[0]?.name, "Mystic Coin");
});

Deno.test("priory_find_items: a part the key cannot read is named with its scope, the rest answers", async (t) => {
  await using app = await startTestApp();
  await t.step(
    "without inventories and characters (trader): the Trading Post's places only",
    async () => {
      const { items, unread } = await find(app, TEST_KEYS.trader, { ids: [WELL_KNOWN.mysticCoin] });
      assert.deepEqual(unread, [
        { part: "materials", scope: "inventories" },
        { part: "bank", scope: "inventories" },
        { part: "shared", scope: "inventories" },
        { part: "bags", scope: "characters" },
        { part: "equipped", scope: "characters" },
        { part: "armory", scope: "inventories" },
      ]);
      assert.deepEqual(items[0]?.places, [
        { place: "delivery", count: 30 },
        { place: "selling", count: 25 },
      ]);
    },
  );
  await t.step("without tradingpost and unlocks (noWallet): the holdings only", async () => {
    const { items, unread } = await find(app, TEST_KEYS.noWallet, { ids: [WELL_KNOWN.mysticCoin] });
    assert.deepEqual(unread, [
      { part: "armory", scope: "unlocks" },
      { part: "delivery", scope: "tradingpost" },
      { part: "selling", scope: "tradingpost" },
    ]);
    const places = new Set(items[0]?.places.map((place) => place.place));
    assert.deepEqual([...places], ["materials", "bank", "shared", "bags"]);
    assert.equal(items[0]?.total, heldInWorld(app.fake.world, WELL_KNOWN.mysticCoin));
  });
  await t.step("a part unread costs no request: the fake never saw one refused", () => {
    assert.ok(app.fake.control.requests.every((request) => request.status !== 403));
  });
});

Deno.test("priory_find_items: exactly one of ids or query, refused before any request", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler, {
    headers: { "X-GW2-Key": TEST_KEYS.full },
  });
  for (const args of [{}, { ids: [19721], query: "ecto" }]) {
    const result = await client.callTool({ name: "priory_find_items", arguments: args });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /exactly one of ids .* or query/);
  }
  assert.equal(app.fake.control.requests.length, 0);
});

Deno.test("priory_find_items: the key is never in a result or a log line; answers stay within 2,500 tokens", async () => {
  await using app = await startTestApp();
  for (const key of [TEST_KEYS.full, TEST_KEYS.veteran, TEST_KEYS.trader]) {
    for (const args of [{ query: "mystic" }, { ids: [19976, 19721, 24295, 30703, 29175] }]) {
      await using client = await connectClient(app.handler, { headers: { "X-GW2-Key": key } });
      const result = await client.callTool({ name: "priory_find_items", arguments: args });
      const text = JSON.stringify(result);
      assert.ok(!text.includes(key.slice(0, 13)), "no key in the result");
      assert.ok(JSON.stringify(result.structuredContent).length / 4 <= 2_500);
    }
  }
  const logs = app.logs.join("\n");
  for (const key of [TEST_KEYS.full, TEST_KEYS.veteran, TEST_KEYS.trader]) {
    assert.ok(!logs.includes(key.slice(0, 13)) && !logs.includes(key.slice(-13)), "no key logged");
  }
});
