/**
 * The four gw2_* tools over the real stack: the MCP handler, the real GW2 client (in-memory KV)
 * and the fake GW2 API, driven by a real MCP client in-process.
 */
import assert from "node:assert/strict";
import { REPRESENTATIVE_IDS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { connectClient, startTestApp, textOf } from "../support/app.ts";

type Structured = Record<string, unknown>;

Deno.test("gw2_* tools over the real client and the fake return shaped records, no upstream padding", async (t) => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler, { era: "2026" });
  const world = app.fake.world;

  await t.step("gw2_items", async () => {
    const ids = [WELL_KNOWN.globOfEctoplasm, WELL_KNOWN.sunrise, WELL_KNOWN.absentItem];
    const result = await client.callTool({ name: "gw2_items", arguments: { ids } });
    const structured = result.structuredContent as Structured;
    assert.equal(textOf(result), JSON.stringify(structured));
    assert.deepEqual(structured.missing_ids, [WELL_KNOWN.absentItem]);
    const items = structured.items as Structured[];
    assert.deepEqual(items.map((item) => item.id), [19721, 30703]);
    const ecto = world.items.get(19721);
    assert.ok(ecto);
    assert.deepEqual(items[0], {
      id: ecto.id,
      name: ecto.name,
      rarity: ecto.rarity,
      type: ecto.type,
      flags: ecto.flags,
      vendor_value: ecto.vendor_value,
    });
    const text = textOf(result);
    for (const field of ["icon", "description", "chat_link", "details", "game_types", "level"]) {
      assert.ok(!text.includes(`"${field}"`), `no ${field}`);
    }
  });

  await t.step("gw2_prices", async () => {
    const ids = [WELL_KNOWN.globOfEctoplasm, WELL_KNOWN.sunrise];
    const result = await client.callTool({ name: "gw2_prices", arguments: { ids } });
    const prices = (result.structuredContent as Structured).prices as Structured[];
    for (const price of prices) {
      const record = world.prices.get(Number(price.id));
      assert.ok(record);
      assert.deepEqual(price, {
        id: record.id,
        buy: record.buys.unit_price,
        sell: record.sells.unit_price,
      });
    }
  });

  await t.step("gw2_recipe_search then gw2_recipes", async () => {
    const search = await client.callTool({
      name: "gw2_recipe_search",
      arguments: { output: WELL_KNOWN.orichalcumIngot },
    });
    const recipeIds = (search.structuredContent as Structured).recipe_ids as number[];
    assert.deepEqual(recipeIds, world.recipesByOutput.get(WELL_KNOWN.orichalcumIngot));
    assert.ok(recipeIds.includes(WELL_KNOWN.orichalcumIngotRecipe));
    const result = await client.callTool({ name: "gw2_recipes", arguments: { ids: recipeIds } });
    const recipes = (result.structuredContent as Structured).recipes as Structured[];
    const recipe = recipes.find((entry) => entry.id === WELL_KNOWN.orichalcumIngotRecipe);
    assert.deepEqual(recipe?.output_item_id, WELL_KNOWN.orichalcumIngot);
    assert.deepEqual(recipe?.ingredients, [{ id: WELL_KNOWN.orichalcumOre, count: 2 }]);
    assert.doesNotMatch(textOf(result), /chat_link|time_to_craft|guild_ingredients|"flags"/);
  });

  await t.step("an empty search for a legendary is a result, not an error", async () => {
    const search = await client.callTool({
      name: "gw2_recipe_search",
      arguments: { output: WELL_KNOWN.sunrise },
    });
    assert.equal(search.isError, undefined);
    assert.deepEqual(search.structuredContent, { recipe_ids: [] });
  });
});

Deno.test("gw2_* tools answer a repeated lookup from the cache: one upstream request", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const ids = REPRESENTATIVE_IDS.slice(0, 30);
  const first = await client.callTool({ name: "gw2_items", arguments: { ids } });
  const second = await client.callTool({ name: "gw2_items", arguments: { ids } });
  assert.deepEqual(second.structuredContent, first.structuredContent);
  const itemRequests = app.fake.control.requests.filter((request) => request.path === "/v2/items");
  assert.equal(itemRequests.length, 1);
  assert.equal(itemRequests[0]?.idCount, 30);
});

Deno.test("gw2_* tools map upstream failures to actionable tool errors", async (t) => {
  await using app = await startTestApp({ maxRetries: 0 });
  await using client = await connectClient(app.handler);
  const cases = [
    ["rate_limited", /^Rate limited: .*Retry in \d+ s/],
    [
      "not_active",
      /^GW2 API unavailable \(HTTP 503\): ArenaNet has switched this GW2 API endpoint off/,
    ],
    ["html_503", /^GW2 API unavailable \(HTTP 503\): ArenaNet has disabled the whole GW2 API/],
    ["server_error", /^GW2 API unavailable \(HTTP 500\): the GW2 API is failing on its side/],
    ["truncated_json", /^GW2 API unavailable.*could not be read/],
  ] as const;
  for (const [fault, pattern] of cases) {
    await t.step(fault, async () => {
      app.fake.control.injectFault(fault, { endpoint: "/v2/commerce/prices", times: Infinity });
      const result = await client.callTool({
        name: "gw2_prices",
        arguments: { ids: [WELL_KNOWN.globOfEctoplasm] },
      });
      app.fake.control.clearFaults();
      assert.equal(result.isError, true, JSON.stringify(result));
      assert.equal(result.structuredContent, undefined);
      const text = textOf(result);
      assert.match(text, pattern);
      assert.doesNotMatch(text, /gw2\.test|\/v2\/|https?:|\.ts\b|Error\b/);
    });
  }
  await t.step("ids that resolve to nothing", async () => {
    const result = await client.callTool({
      name: "gw2_items",
      arguments: { ids: [WELL_KNOWN.absentItem] },
    });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^Not found: the GW2 API has no item with id 1\./);
  });
});
