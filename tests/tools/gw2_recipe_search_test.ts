import assert from "node:assert/strict";
import { silentLogger } from "../../src/log.ts";
import { gw2RecipeSearch } from "../../src/tools/gw2_recipe_search.ts";
import { StubGw2Client } from "./_stub_gw2.ts";

Deno.test("gw2RecipeSearch.handle() searches by input or by output", async (t) => {
  const gw2 = new StubGw2Client();
  await t.step("by input", async () => {
    const result = await gw2RecipeSearch.handle({ input: 19976 }, { gw2, log: silentLogger });
    assert.deepEqual(result, { recipe_ids: [7319] });
  });
  await t.step("by output", async () => {
    const result = await gw2RecipeSearch.handle({ output: 19721 }, { gw2, log: silentLogger });
    assert.deepEqual(result, { recipe_ids: [7319] });
  });
  await t.step("an item no recipe makes gives an empty list, not an error", async () => {
    const result = await gw2RecipeSearch.handle({ output: 30704 }, { gw2, log: silentLogger });
    assert.deepEqual(result, { recipe_ids: [] });
  });
  assert.deepEqual(gw2.calls.map((call) => call.args[0]), [
    { input: 19976 },
    { output: 19721 },
    { output: 30704 },
  ]);
});

Deno.test("gw2RecipeSearch.handle() refuses both or neither field itself, before upstream", async () => {
  const gw2 = new StubGw2Client();
  for (const query of [{}, { input: 1, output: 2 }]) {
    await assert.rejects(
      () => gw2RecipeSearch.handle(query, { gw2, log: silentLogger }),
      /exactly one of input or output/,
    );
  }
  assert.equal(gw2.callCount, 0);
});

Deno.test("gw2RecipeSearch's schema refuses both and neither (the rule the JSON Schema cannot show)", () => {
  const schema = gw2RecipeSearch.inputSchema;
  assert.equal(schema.safeParse({}).success, false);
  assert.equal(schema.safeParse({ input: 1, output: 2 }).success, false);
  assert.equal(schema.safeParse({ input: 1 }).success, true);
  assert.equal(schema.safeParse({ output: 1 }).success, true);
});
