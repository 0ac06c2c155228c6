import assert from "node:assert/strict";
import { completeItem, completeLegendary, MAX_COMPLETIONS } from "../../src/prompts/complete.ts";
import { silentLogger } from "../../src/log.ts";
import { NameIndex } from "../../src/search/name_index.ts";
import { ManualClock } from "../support/clock.ts";

Deno.test("completeLegendary() ranks like the item search and never repeats a name", () => {
  assert.deepEqual(completeLegendary("twilight"), ["Twilight"]);
  const armor = completeLegendary("perfected envoy");
  assert.ok(armor.length > 0 && armor.length <= MAX_COMPLETIONS);
  assert.equal(new Set(armor).size, armor.length);
  assert.deepEqual(completeLegendary("   ").length, MAX_COMPLETIONS);
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
