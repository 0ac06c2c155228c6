/**
 * The reads the crafting scan adds to the client: `/v2/account/recipes` (scope `unlocks`), the
 * characters' crafting disciplines beside their bags (one `/v2/characters?ids=all`), and the buy
 * side of an order book.
 */

import assert from "node:assert/strict";
import { Gw2ScopeMissingError } from "../../src/gw2/errors.ts";
import { CRAFT_MARKET, createFakeGw2, TEST_KEYS } from "../fake_gw2/mod.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";

async function setup() {
  const kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const gw2 = clientOverFake(kv, clock, fake);
  return { kv, clock, fake, gw2, [Symbol.dispose]: () => kv.close() };
}

Deno.test("accountRecipes() reads the learned recipe ids, once within five minutes; a key without unlocks is told so", async () => {
  using env = await setup();
  const { value } = await env.gw2.doc("accountRecipes", { key: TEST_KEYS.full });
  assert.ok(value.includes(CRAFT_MARKET.spear), "the learned sheet");
  assert.ok(!value.includes(CRAFT_MARKET.trident), "not the other");
  await env.gw2.doc("accountRecipes", { key: TEST_KEYS.full });
  assert.equal(
    env.fake.control.requests.filter((request) => request.path === "/v2/account/recipes").length,
    1,
  );
  await assert.rejects(
    () => env.gw2.doc("accountRecipes", { key: TEST_KEYS.accountOnly }),
    (error) => {
      assert.ok(error instanceof Gw2ScopeMissingError);
      assert.equal(error.scope, "unlocks");
      return true;
    },
  );
});

Deno.test("characterBags() carries each character's crafting disciplines and ratings", async () => {
  using env = await setup();
  const { value } = await env.gw2.doc("characterBags", { key: TEST_KEYS.full });
  const zoe = value.find((character) => character.name === "Zoë Ironfist");
  assert.deepEqual(zoe?.crafting, [
    { discipline: "Weaponsmith", rating: 500, active: true },
    { discipline: "Armorsmith", rating: 500, active: false },
  ]);
  // A key without inventories still reads the disciplines (scope characters).
  const bare = await env.gw2.doc("characterBags", { key: TEST_KEYS.noInventories });
  assert.ok(bare.value.every((character) => character.bags === undefined));
  assert.ok(bare.value.some((character) => (character.crafting ?? []).length > 0));
});

Deno.test("listings() keeps the buy side, highest first, units as upstream lists them", async () => {
  using env = await setup();
  const [book] = (await env.gw2.listings([CRAFT_MARKET.banner])).found;
  const world = env.fake.world.listings.get(CRAFT_MARKET.banner);
  assert.ok(book !== undefined && world !== undefined);
  assert.deepEqual(book.buys, world.buys.map((level) => [level.unit_price, level.quantity]));
  assert.equal(book.buys?.reduce((sum, [, units]) => sum + units, 0), 3, "a thin bid side");
  assert.ok(
    (book.buys ?? []).every((level, index, all) =>
      index === 0 || level[0] < (all[index - 1]?.[0] ?? 0)
    ),
  );
});
