/**
 * The fake's reset and Wizard's Vault endpoints: the catalogues' bulk rules over string and
 * numeric ids, the account's progress behind `progression`, the planted Vault, and the control
 * that moves `/v2/account`'s `last_modified` across a reset.
 */
import assert from "node:assert/strict";
import { asArray, asRecord, bearer, errorBody, get, idsOf } from "./_support.ts";
import {
  createFakeGw2,
  DUNGEONS,
  MAIN_PROGRESS,
  MAIN_VAULT,
  RAIDS,
  TEST_KEYS,
  VAULT_LISTING,
  VETERAN_PROGRESS,
  WORLD_BOSSES,
} from "./mod.ts";

const PINNED = "v=2022-03-09T02:00:00.000Z";

Deno.test("the reset catalogues list their string ids and expand them, ids=all included", async () => {
  const fake = createFakeGw2();
  const bosses = await get(fake, "/v2/worldbosses");
  assert.equal(bosses.status, 200);
  assert.deepEqual(bosses.body, WORLD_BOSSES);
  assert.equal(bosses.headers.get("x-result-total"), String(WORLD_BOSSES.length));
  const all = await get(fake, "/v2/worldbosses?ids=all");
  assert.deepEqual(all.body, WORLD_BOSSES.map((id) => ({ id })));
  const one = await get(fake, "/v2/worldbosses/tequatl_the_sunless");
  assert.deepEqual(one.body, { id: "tequatl_the_sunless" });
  assert.equal((await get(fake, "/v2/worldbosses/nobody")).status, 404);
  const raids = await get(fake, "/v2/raids?ids=all");
  assert.deepEqual(idsOf(raids.body), RAIDS.map((raid) => raid.id));
  const some = await get(fake, "/v2/dungeons?ids=ascalonian_catacombs,nowhere");
  assert.equal(some.status, 206, "a partial list, as for numeric ids");
  assert.deepEqual(some.body, [DUNGEONS[0]]);
  const paged = await get(fake, "/v2/dungeons?page=1&page_size=5");
  assert.equal(paged.headers.get("x-page-total"), "2");
  assert.equal(asArray(paged.body).length, 3);
  assert.equal((await get(fake, "/v2/dungeons?page=2&page_size=5")).status, 400);
  assert.deepEqual(
    (await get(fake, "/v2/dailycrafting")).body,
    [
      "charged_quartz_crystal",
      "glob_of_elder_spirit_residue",
      "lump_of_mithrilium",
      "spool_of_silk_weaving_thread",
      "spool_of_thick_elonian_cord",
    ],
  );
  assert.equal(asArray((await get(fake, "/v2/mapchests")).body).length, 8);
});

Deno.test("the season names its listings and objectives, each expandable", async () => {
  const fake = createFakeGw2();
  const season = asRecord((await get(fake, "/v2/wizardsvault")).body);
  assert.equal(season.title, "Season of the Quiet Priory");
  assert.ok(Date.parse(String(season.start)) < Date.parse(String(season.end)));
  const listings = await get(fake, "/v2/wizardsvault/listings?ids=all");
  assert.deepEqual(idsOf(listings.body), season.listings);
  const one = asRecord((await get(fake, `/v2/wizardsvault/listings/${VAULT_LISTING.dawn}`)).body);
  assert.deepEqual(Object.keys(one), ["id", "item_id", "item_count", "type", "cost"]);
  assert.ok(!("purchase_limit" in one), "the public listings lack the limit (gw2-api #120)");
  const objectives = await get(fake, "/v2/wizardsvault/objectives?ids=all&lang=de");
  assert.deepEqual(idsOf(objectives.body), season.objectives);
  assert.equal(
    asRecord(asArray(objectives.body)[0]).title,
    "Complete Events in Any Map",
    "lang is ignored (gw2-api #78)",
  );
});

Deno.test("the account's progress needs progression, and each key reads its own account", async () => {
  const fake = createFakeGw2();
  for (const part of ["dailycrafting", "worldbosses", "mapchests", "dungeons", "raids"] as const) {
    const main = await get(fake, `/v2/account/${part}`, bearer(TEST_KEYS.full));
    assert.deepEqual(main.body, MAIN_PROGRESS[part], part);
    assert.equal(main.headers.get("cache-control"), "private, max-age=300");
    const veteran = await get(fake, `/v2/account/${part}`, bearer(TEST_KEYS.veteran));
    assert.deepEqual(veteran.body, VETERAN_PROGRESS[part], part);
    const denied = await get(fake, `/v2/account/${part}`, bearer(TEST_KEYS.noWallet));
    assert.equal(denied.status, 403);
    assert.equal(denied.text, errorBody("requires scope progression"));
    assert.equal((await get(fake, `/v2/account/${part}`)).status, 401);
  }
  for (const part of ["daily", "weekly", "special", "listings"] as const) {
    const got = await get(fake, `/v2/account/wizardsvault/${part}`, bearer(TEST_KEYS.full));
    assert.deepEqual(got.body, MAIN_VAULT[part], part);
    const denied = await get(
      fake,
      `/v2/account/wizardsvault/${part}`,
      bearer(TEST_KEYS.noCharacters),
    );
    assert.equal(denied.text, errorBody("requires scope progression"));
  }
});

Deno.test("the planted Vault: a limit reached, the Normal listings' 0 (gw2-api #84), unlimited rewards", async () => {
  const fake = createFakeGw2();
  const listings = asArray(
    (await get(fake, "/v2/account/wizardsvault/listings", bearer(TEST_KEYS.full))).body,
  ).map(asRecord);
  const byId = new Map(listings.map((listing) => [listing.id, listing]));
  const coin = byId.get(VAULT_LISTING.mysticCoin);
  assert.equal(coin?.purchased, coin?.purchase_limit, "the Mystic Coin's limit is reached");
  assert.equal(byId.get(VAULT_LISTING.ectoplasm)?.purchased, 0);
  assert.equal(byId.get(VAULT_LISTING.blood)?.purchased, 3);
  const dust = byId.get(VAULT_LISTING.dust);
  assert.ok(dust !== undefined && !("purchased" in dust) && !("purchase_limit" in dust));
  const daily = asRecord(
    (await get(fake, "/v2/account/wizardsvault/daily", bearer(TEST_KEYS.full))).body,
  );
  assert.equal(typeof daily.meta_reward_claimed, "boolean");
});

Deno.test("the control moves /v2/account's last_modified, and reset restores it", async () => {
  const fake = createFakeGw2();
  const read = async () =>
    asRecord((await get(fake, `/v2/account?${PINNED}`, bearer(TEST_KEYS.full))).body)
      .last_modified;
  const planted = await read();
  fake.control.setLastModified("2026-12-01T07:00:00Z");
  assert.equal(await read(), "2026-12-01T07:00:00Z");
  assert.equal(
    asRecord((await get(fake, `/v2/account?${PINNED}`, bearer(TEST_KEYS.veteran))).body)
      .last_modified,
    "2026-12-01T07:00:00Z",
    "every account",
  );
  assert.throws(() => fake.control.setLastModified("yesterday"), TypeError);
  fake.control.reset();
  assert.equal(await read(), planted);
});

Deno.test("the Vault's rewards are items of the world: eight trade, four do not", () => {
  const world = createFakeGw2().world;
  const traded = new Set<number>([
    VAULT_LISTING.ectoplasm,
    VAULT_LISTING.mysticCoin,
    VAULT_LISTING.blood,
    VAULT_LISTING.dust,
    VAULT_LISTING.venom,
    VAULT_LISTING.reagent,
    VAULT_LISTING.dawn,
    VAULT_LISTING.mithril,
  ]);
  for (const listing of MAIN_VAULT.listings) {
    assert.ok(world.items.has(listing.item_id), `item ${listing.item_id}`);
    assert.equal(
      world.prices.has(listing.item_id),
      traded.has(listing.id),
      `listing ${listing.id}`,
    );
  }
});
