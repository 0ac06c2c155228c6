import assert from "node:assert/strict";
import { Gw2NotFoundError } from "../../src/gw2/errors.ts";
import { silentLogger } from "../../src/log.ts";
import { gw2Prices } from "../../src/tools/gw2_prices.ts";
import { StubGw2Client } from "./_stub_gw2.ts";

Deno.test("gw2Prices.handle() flattens buys/sells to unit prices in copper", async () => {
  const gw2 = new StubGw2Client();
  const result = await gw2Prices.handle({ ids: [19721, 20796] }, { gw2, log: silentLogger });
  assert.deepEqual(result, {
    prices: [{ id: 19721, buy: 2603, sell: 2797 }],
    missing_ids: [20796],
  });
});

Deno.test("gw2Prices.handle() throws not-found when no id has a price", async () => {
  await assert.rejects(
    () => gw2Prices.handle({ ids: [20796] }, { gw2: new StubGw2Client(), log: silentLogger }),
    (error) => error instanceof Gw2NotFoundError && error.ids.join() === "20796",
  );
});
