/**
 * `priory_account_wallet`'s gem exchange: the Gem row says what its gems sell for and the Coin
 * row what its coins buy, read from `/v2/commerce/exchange/*` without the player's key and cached
 * a few minutes; an exchange failure leaves those figures out and the wallet still answers.
 */
import assert from "node:assert/strict";
import { TEST_KEYS } from "../fake_gw2/mod.ts";
import { GEM_EXCHANGE } from "../fake_gw2/world/trading_post.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";

type Row = { id: number; name: string | null; value: number; coins?: number; gems?: number };

async function wallet(app: TestApp, key: string = TEST_KEYS.full): Promise<Row[]> {
  await using client = await connectClient(app.handler, { headers: { "X-GW2-Key": key } });
  const result = await client.callTool({ name: "priory_account_wallet", arguments: {} });
  assert.equal(result.isError, undefined, textOf(result));
  return (result.structuredContent as { wallet: Row[] }).wallet;
}

const exchangeRequests = (app: TestApp) =>
  app.fake.control.requests.filter((request) => request.path.startsWith("/v2/commerce/exchange"));

Deno.test("priory_account_wallet: coins on the Gem row, gems on the Coin row, at the exchange's rates now", async () => {
  await using app = await startTestApp();
  const rows = await wallet(app);
  const coin = rows.find((row) => row.id === 1);
  const gem = rows.find((row) => row.id === 4);
  assert.equal(gem?.coins, Math.floor((gem?.value ?? 0) * GEM_EXCHANGE.gemSells));
  assert.equal(coin?.gems, Math.floor((coin?.value ?? 0) / GEM_EXCHANGE.gemCosts));
  assert.deepEqual([gem?.coins, coin?.gems], [3_682_192, 10_928]);
  assert.ok(
    rows.filter((row) => row.id !== 1 && row.id !== 4).every((row) =>
      row.coins === undefined && row.gems === undefined
    ),
  );
  // No key on the exchange: it is public.
  const asked = exchangeRequests(app);
  assert.deepEqual(asked.map((request) => request.keyLabel), [undefined, undefined]);
  assert.deepEqual(
    asked.map((request) => /quantity=\d+/.exec(request.query)?.[0]).sort(),
    ["quantity=1600", "quantity=31415926"],
  );
  await wallet(app);
  assert.equal(exchangeRequests(app).length, 2, "the quotes are cached");
});

Deno.test("priory_account_wallet: an exchange failure leaves its figure out, the wallet answers", async () => {
  await using app = await startTestApp({ maxRetries: 0 });
  app.fake.control.injectFault("server_error", { endpoint: "/v2/commerce/exchange/gems" });
  const rows = await wallet(app);
  assert.equal(rows.find((row) => row.id === 4)?.coins, undefined);
  assert.equal(rows.find((row) => row.id === 1)?.gems, 10_928, "the other quote still answers");
  assert.ok(app.logs.some((line) => line.includes("gem exchange unread")));
});
