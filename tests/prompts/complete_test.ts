import assert from "node:assert/strict";
import { completeItem, completeLegendary, MAX_COMPLETIONS } from "../../src/prompts/complete.ts";
import { silentLogger } from "../../src/log.ts";
import { NameIndex } from "../../src/search/name_index.ts";
import { ManualClock } from "../support/clock.ts";

Deno.test("completeLegendary() ranks like the item search and never repeats a name", async () => {
  assert.deepEqual(await completeLegendary("twilight"), ["Twilight"]);
  const armor = await completeLegendary("perfected envoy");
  assert.ok(armor.length > 0 && armor.length <= MAX_COMPLETIONS);
  assert.equal(new Set(armor).size, armor.length);
  assert.deepEqual((await completeLegendary("   ")).length, MAX_COMPLETIONS);
});

Deno.test("completeLegendary() completes a legendary's name in another language from the index", async () => {
  using kv = await Deno.openKv(":memory:");
  const names = new NameIndex({
    kv,
    namespace: "http://gw2.test",
    log: silentLogger,
    clock: new ManualClock(),
  });
  await names.putMany([
    { id: 30704, name: "Düsternis", rarity: "Legendary", type: "Weapon" },
    { id: 19721, name: "Ektoplasmabatzen", rarity: "Exotic", type: "CraftingMaterial" },
  ], "de");
  assert.deepEqual(await completeLegendary("düst", names), ["Düsternis"]);
  assert.deepEqual(await completeLegendary("dust", names), ["Düsternis"], "accents or none");
  assert.deepEqual(await completeLegendary("ektopl", names), [], "legendaries only");
});

Deno.test("completeItem() offers nothing, and never fails, without a readable index", async () => {
  assert.deepEqual(await completeItem(undefined, "glob"), []);
  const kv = await Deno.openKv(":memory:");
  const names = new NameIndex({
    kv,
    namespace: "http://gw2.test",
    log: silentLogger,
    clock: new ManualClock(),
  });
  kv.close();
  assert.deepEqual(await completeItem(names, "glob"), []);
});
