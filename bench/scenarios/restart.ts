/**
 * A restart at full scale: Priory as `deno task start` runs it on a KV that a previous process
 * warmed and that holds the full five-language name index (5 × 75,000 synthetic names, as the
 * catalogue crawl leaves it: `seedSyntheticNames`), at 300 ms of upstream latency. The first
 * process warms the KV (its startup warm-up reads the legendary trees' items and names) and
 * stops; its warm-up lease is then removed, as if the restart came after it lapsed (two minutes),
 * so the new process warms up too. From the moment the new one listens:
 *
 * - **the longest event-loop stall**, from a probe asking `/healthz` every 5 ms from a worker
 *   (`bench/support/stall_probe.ts`) until 3 s after the index is loaded and the warm-up done
 *   (the full collection after the warm-up included);
 * - **the warm-up's upstream requests**: on a warm KV its items and names are cache hits, so it
 *   re-reads none (a KV read past its 2 s bound, `gw2 cache read failed`, would send them
 *   upstream again: the issue saw 6 item batches on every restart);
 * - **the first search**, sent as soon as the server listens, and what its `index` said;
 * - how long the index took to load (its `name index loaded` line).
 *
 * @module
 */

import { LANGUAGES } from "../../src/gw2/types.ts";
import { seedSyntheticNames } from "../../tests/support/synthetic_names.ts";
import type { BenchServer, Scenario } from "../scenario.ts";
import { requestIds } from "../support/fake.ts";
import { startStallProbe } from "../support/stall_probe.ts";
import { timed } from "../support/stats.ts";
import { ITEM_SEARCH, OPEN_BUDGET, structured } from "./calls.ts";
import { FULL_INDEX } from "./item_search.ts";
import { RANKING_LATENCY_MS } from "./ranking.ts";
import { warmRun } from "./warm_up.ts";

/** The issue's bound on the longest stall during a restart. */
const STALL_MAX_MS = 100;
/** How long the probe goes on once the index is loaded and the warm-up done. */
const SETTLE_MS = 3_000;

/** The first background line of `server` matching `msg`, parsed; undefined until one is logged. */
function logged(server: BenchServer, msg: string): Record<string, unknown> | undefined {
  const line = (server.backgroundLog?.() ?? []).find((entry) => entry.includes(`"msg":"${msg}"`));
  return line === undefined ? undefined : JSON.parse(line);
}

/** Waits (polling) until `ready` holds, up to `maxMs`. */
async function until(ready: () => boolean, what: string, maxMs = 180_000): Promise<void> {
  for (let waited = 0; !ready(); waited += 100) {
    if (waited > maxMs) throw new Error(`${what} did not happen within ${maxMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The restart scenario. */
export const restart: Scenario = {
  name: "restart",
  summary:
    "restart on a warm KV with the full five-language index (5 × 75,000 names): longest stall, the warm-up's upstream requests, the first search",
  tools: [ITEM_SEARCH],
  async run(ctx) {
    const fake = await ctx.startFake({ latencyMs: RANKING_LATENCY_MS, rate: OPEN_BUDGET });
    const kvPath = ctx.kvPath();
    {
      using kv = await Deno.openKv(kvPath);
      await seedSyntheticNames(kv, fake.url, FULL_INDEX, 1, LANGUAGES);
    }
    ctx.note("first process: warms the KV");
    const previous = await ctx.startPriory(fake, { kvPath });
    await until(() => warmRun(previous.backgroundLog?.() ?? []) !== undefined, "the first warm-up");
    await previous.close();
    {
      // As after a pause longer than the warm-up's lease: the restart warms up again.
      using kv = await Deno.openKv(kvPath);
      await kv.delete(["background", "v1", fake.url, "warm-lease"]);
    }
    ctx.note("restart on the warm KV");
    const before = fake.fake.control.requests.length;
    const server = await ctx.startPriory(fake, { kvPath });
    const probe = startStallProbe(server.mcpUrl.replace(/\/mcp$/, "/healthz"));
    const client = ctx.client(server);
    let first: Record<string, unknown> = {};
    const firstMs = await timed(async () => {
      first = structured(
        await client.callTool(ITEM_SEARCH, { query: "Glob of Ectoplasm" }),
        ITEM_SEARCH,
      );
    });
    await until(() => logged(server, "name index loaded") !== undefined, "the index load");
    await until(() => warmRun(server.backgroundLog?.() ?? []) !== undefined, "the warm-up");
    // And a while after: the full collection that follows the warm-up runs once the index is
    // loaded, a stall of its own.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const stalls = await probe.stop();
    const loaded = logged(server, "name index loaded") ?? {};
    const warm = warmRun(server.backgroundLog?.() ?? []) ?? {};
    const cacheFailures =
      (server.backgroundLog?.() ?? []).filter((line) =>
        line.includes(`"msg":"gw2 cache read failed"`)
      ).length;
    const requests = fake.fake.control.requests.slice(before);
    const itemBatches = requests.filter((request) =>
      request.path === "/v2/items" && request.query.includes("ids=")
    );
    const reread = itemBatches.reduce((sum, request) => sum + requestIds(request).length, 0);
    const matches = (first.matches as { id: number }[] | undefined) ?? [];
    return {
      figures: [
        {
          label: "longest event-loop stall",
          value: stalls.longestMs,
          unit: "ms",
          note: `${stalls.samples} probes of /healthz, median ${
            stalls.medianMs.toFixed(1)
          } ms; over 50 ms: ${
            stalls.slow.map(([at, ms]) => `${ms} ms at ${at} ms`).join(", ") || "none"
          }`,
        },
        {
          label: "name index loaded",
          value: Number(loaded.ms),
          unit: "ms",
          note: `${Number(loaded.names).toLocaleString("en-US")} items, ${LANGUAGES.length} × ${
            FULL_INDEX.toLocaleString("en-US")
          } names, from its load's start`,
        },
        {
          label: "first search",
          value: firstMs,
          unit: "ms",
          note: `sent on listening: ${matches.length} matches, index ${
            JSON.stringify(first.index ?? "?")
          }`,
        },
        {
          label: "warm-up on the warm KV",
          value: Number(warm.ms),
          unit: "ms",
          note: `${Number(warm.ids)} ids`,
        },
        {
          label: "warm-up: items re-read upstream",
          value: reread,
          unit: "count",
          note:
            `${itemBatches.length} item batches, ${requests.length} requests in all (crons beside); ${cacheFailures} "gw2 cache read failed"`,
        },
      ],
      targets: [
        {
          label: `longest stall during a restart < ${STALL_MAX_MS} ms`,
          value: stalls.longestMs,
          unit: "ms",
          max: STALL_MAX_MS,
        },
        {
          label: "restart on a warm KV: 0 items re-read upstream",
          value: reread,
          unit: "count",
          max: 0,
        },
        {
          label: "first search after a restart ≤ 1 s",
          value: firstMs,
          unit: "ms",
          max: 1_000,
        },
      ],
    };
  },
};
