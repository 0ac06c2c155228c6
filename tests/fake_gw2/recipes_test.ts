import assert from "node:assert/strict";
import { asArray, asRecord, errorBody, get, idsOf } from "./_support.ts";
import { createFakeGw2, GEN1_LEGENDARY_IDS, WELL_KNOWN } from "./mod.ts";

const fake = createFakeGw2({ rateBurst: Infinity });
const world = fake.world;
const V2022 = "2022-03-09T02:00:00.000Z";

Deno.test("fake.fetch() serves recipes in the classic schema without a version", async () => {
  const got = await get(fake, "/v2/recipes/21");
  assert.equal(got.status, 200);
  const recipe = asRecord(got.body);
  assert.deepEqual(recipe.ingredients, [{ item_id: 19701, count: 2 }]);
  assert.deepEqual(recipe.guild_ingredients, []);
  assert.equal(recipe.chat_link, "[&CRUAAAA=]");
  assert.equal(got.headers.get("content-language"), null);
});

Deno.test("fake.fetch() switches recipe ingredients at the 2022-03-09 schema", async (t) => {
  const current = JSON.stringify(world.recipes.get(21), null, 2);
  const classic = JSON.stringify(world.classicRecipes.get(21), null, 2);
  const cases: readonly (readonly [string, RequestInit, string])[] = [
    [`?v=${V2022}`, {}, current],
    ["?v=latest", {}, current],
    ["?v=2024-07-20T01:00:00.000Z", {}, current],
    ["", { headers: { "X-Schema-Version": V2022 } }, current],
    ["", { headers: { "X-Schema-Version": "latest" } }, current],
    ["?v=2022-03-09T01:59:59.000Z", {}, classic],
    ["?v=2019-03-20T00:00:00.000Z", {}, classic],
    ["?v=not-a-date", {}, classic],
  ];
  for (const [query, init, expected] of cases) {
    await t.step(`${query || JSON.stringify(init.headers)}`, async () => {
      const got = await get(fake, `/v2/recipes/21${query}`, init);
      assert.equal(got.text, expected);
    });
  }
  await t.step("guild ingredients fold into ingredients", async () => {
    const classicGot = asRecord((await get(fake, "/v2/recipes/10946")).body);
    assert.deepEqual(classicGot.guild_ingredients, [{ upgrade_id: 556, count: 100 }]);
    const got = asRecord((await get(fake, `/v2/recipes/10946?v=${V2022}`)).body);
    assert.equal(got.guild_ingredients, undefined);
    assert.deepEqual(asArray(got.ingredients).at(-1), {
      type: "GuildUpgrade",
      id: 556,
      count: 100,
    });
    assert.equal(got.output_upgrade_id, 194);
  });
  await t.step("bulk and paged answers follow the schema too", async () => {
    const bulk = await get(fake, `/v2/recipes?ids=21,19&v=${V2022}`);
    assert.deepEqual(bulk.body, [world.recipes.get(19), world.recipes.get(21)]);
    const page = await get(fake, "/v2/recipes?page=0&page_size=2");
    assert.deepEqual(page.body, [...world.classicRecipes.values()].slice(0, 2));
  });
});

Deno.test("fake.fetch() searches recipes by input and output, answering ids", async (t) => {
  await t.step("input lists every recipe consuming the item", async () => {
    const got = await get(fake, `/v2/recipes/search?input=${WELL_KNOWN.globOfEctoplasm}`);
    assert.equal(got.status, 200);
    const ids = asArray(got.body);
    assert.ok(ids.length >= 890);
    assert.deepEqual(ids, world.recipesByInput.get(WELL_KNOWN.globOfEctoplasm));
    assert.equal(got.headers.get("x-result-count"), String(ids.length));
    assert.equal(got.headers.get("x-result-total"), String(ids.length));
    for (const id of ids) {
      const recipe = world.recipes.get(Number(id));
      assert.ok(recipe?.ingredients.some((ingredient) => ingredient.id === 19721));
    }
  });
  await t.step("output finds the crafting-station recipe", async () => {
    const got = await get(fake, `/v2/recipes/search?output=${WELL_KNOWN.orichalcumIngot}`);
    assert.deepEqual(got.body, [21]);
  });
  await t.step("Mystic Forge-only outputs have no recipe: 200 []", async () => {
    for (const id of [...GEN1_LEGENDARY_IDS, WELL_KNOWN.mysticClover, WELL_KNOWN.giftOfFortune]) {
      const got = await get(fake, `/v2/recipes/search?output=${id}`);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, [], `output ${id}`);
      assert.equal(got.headers.get("x-result-total"), "0");
      const direct = await get(fake, `/v2/recipes/search?output=${id}&v=latest`);
      assert.equal(direct.text, "[]");
    }
  });
  await t.step("a non-numeric item id matches nothing", async () => {
    assert.deepEqual((await get(fake, "/v2/recipes/search?input=abc")).body, []);
  });
  await t.step("neither or both parameters is 400 (chosen)", async () => {
    for (const query of ["", "?input=19721&output=19685"]) {
      const got = await get(fake, `/v2/recipes/search${query}`);
      assert.equal(got.status, 400);
      assert.equal(got.text, errorBody("exactly one of input or output is required"));
    }
  });
  await t.step("id= outside the matches is 404", async () => {
    const got = await get(fake, "/v2/recipes/search?output=19685&id=19");
    assert.equal(got.status, 404);
    assert.equal(got.text, errorBody("no such id"));
  });
  await t.step("ids=all and page expand the matches into records", async () => {
    const all = await get(fake, `/v2/recipes/search?output=19685&ids=all&v=${V2022}`);
    assert.deepEqual(all.body, [world.recipes.get(21)]);
    const page = await get(fake, "/v2/recipes/search?input=19721&page=0&page_size=3");
    assert.equal(asArray(page.body).length, 3);
    assert.match(
      page.headers.get("link") ?? "",
      /^<\/v2\/recipes\/search\?input=19721&page=1&page_size=3>; rel=next/u,
    );
    assert.deepEqual(idsOf(page.body), world.recipesByInput.get(19721)?.slice(0, 3));
  });
});
