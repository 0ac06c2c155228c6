import { startFakeGw2, TEST_KEYS } from "./tests/fake_gw2/mod.ts";
import { servePrioryInProcess } from "./bench/support/in_process.ts";
import { McpWire } from "./bench/support/wire.ts";
await using fake = await startFakeGw2({ rateBurst: 100000, ratePerSec: 10000 });
const kv = await Deno.openKv(":memory:");
const server = servePrioryInProcess({ gw2ApiBase: fake.url, kv, token: "t" });
const client = new McpWire({
  url: server.mcpUrl,
  protocol: "2026-07-28",
  token: "t",
  headers: { "x-gw2-key": TEST_KEYS.full },
});
let last = performance.now();
let worst = 0;
const timer = setInterval(() => {
  const now = performance.now();
  const lag = now - last - 5;
  if (lag > worst) worst = lag;
  last = now;
}, 5);
for (let i = 0; i < 4; i++) {
  worst = 0;
  const t0 = performance.now();
  const r = await client.callTool("priory_legendary_ranking", { limit: 5 });
  console.log(
    `ranking ${i}: ${(performance.now() - t0).toFixed(0)} ms, worst loop block ${
      worst.toFixed(0)
    } ms, error=${r.isError ?? false}`,
  );
}
clearInterval(timer);
await server.close();
kv.close();
