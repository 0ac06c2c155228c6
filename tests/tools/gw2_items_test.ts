import assert from "node:assert/strict";
import { Gw2NotFoundError } from "../../src/gw2/errors.ts";
import { silentLogger } from "../../src/log.ts";
import { gw2Items } from "../../src/tools/gw2_items.ts";
import { BOUND, ECTO, StubGw2Client } from "./_stub_gw2.ts";

Deno.test("gw2Items.handle() returns the shaped records and the unknown ids", async () => {
  const gw2 = new StubGw2Client();
  const result = await gw2Items.handle({ ids: [19721, 20796, 1] }, { gw2, log: silentLogger });
  assert.deepEqual(result, {
    items: [
      {
        id: ECTO.id,
        name: ECTO.name,
        rarity: ECTO.rarity,
        type: ECTO.type,
        flags: [],
        vendor_value: 256,
      },
      {
        id: BOUND.id,
        name: BOUND.name,
        rarity: "Rare",
        type: "CraftingMaterial",
        flags: ["AccountBound", "NoSell"],
        vendor_value: 0,
      },
    ],
    missing_ids: [1],
  });
  assert.deepEqual(gw2.calls, [{ method: "items", args: [[19721, 20796, 1]] }]);
});

Deno.test("gw2Items.handle() makes one upstream read per call (no fan-out above the client)", async () => {
  const gw2 = new StubGw2Client();
  const ids = Array.from({ length: 100 }, (_, index) => 19700 + index);
  await gw2Items.handle({ ids }, { gw2, log: silentLogger });
  assert.equal(gw2.callCount, 1);
});

Deno.test("gw2Items.handle() throws not-found naming the ids when none exists", async () => {
  const gw2 = new StubGw2Client();
  await assert.rejects(
    () => gw2Items.handle({ ids: [1, 2] }, { gw2, log: silentLogger }),
    (error) => error instanceof Gw2NotFoundError && error.ids.join() === "1,2",
  );
});

Deno.test("gw2Items.handle() reports a stale read's age in seconds", async () => {
  const gw2 = new StubGw2Client({ staleAgeMs: 90_500 });
  const result = await gw2Items.handle({ ids: [19721] }, { gw2, log: silentLogger });
  assert.equal(result.stale_age_s, 91);
});
