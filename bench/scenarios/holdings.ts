/**
 * The player's holdings for the fake's 19-character account at 300 ms of upstream latency, read
 * the way every account-aware tool reads them (`readHoldings`: one cached `/v2/tokeninfo`, then
 * material storage, bank, shared slots and every character's bags in one request, at once),
 * cold and again within five minutes — against the seeds' way: the same data one request after
 * another with one inventory request per character (`/v2/characters` then
 * `/v2/characters/:name/inventory` 19 times), i.e. its requests × latency.
 *
 * @module
 */

import { readHoldings } from "../../tests/support/holdings.ts";
import { systemClock } from "../../src/async/clock.ts";
import { createGw2Client, type InstrumentedGw2Client } from "../../src/gw2/client.ts";
import { silentLogger } from "../../src/log.ts";
import { TEST_KEYS } from "../../tests/fake_gw2/mod.ts";
import type { BenchFake, Scenario } from "../scenario.ts";
import { timed } from "../support/stats.ts";
import { OPEN_BUDGET, upstreamRequests } from "./calls.ts";
import { RANKING_LATENCY_MS } from "./ranking.ts";

const KEY = TEST_KEYS.veteran;

function client(fake: BenchFake, kv: Deno.Kv): InstrumentedGw2Client {
  return createGw2Client({
    baseUrl: fake.url,
    kv,
    clock: systemClock,
    log: silentLogger,
    rate: { burst: 300, perSec: 5 },
  });
}

/** The seeds' `getOwnedItems` plus material storage: every read after the one before. */
async function seedsReads(gw2: InstrumentedGw2Client): Promise<void> {
  await gw2.doc("accountMaterials", { key: KEY });
  const names = (await gw2.doc("characters", { key: KEY })).value;
  for (const name of names) await gw2.doc("characterInventory", { key: KEY, name });
  await gw2.doc("accountBank", { key: KEY });
  await gw2.doc("accountInventory", { key: KEY });
}

/** The holdings scenario. */
export const holdings: Scenario = {
  name: "holdings",
  summary: "a 19-character account's holdings at 300 ms upstream vs the seeds' sequential reads",
  tools: [],
  async run(ctx) {
    const fake = await ctx.startFake({ latencyMs: RANKING_LATENCY_MS, rate: OPEN_BUDGET });
    const requests = () => upstreamRequests(fake);
    using kv = await Deno.openKv(":memory:");
    const gw2 = client(fake, kv);
    let characters = 0;
    let before = requests();
    const coldMs = await timed(async () => {
      characters = (await readHoldings(gw2, KEY)).characters;
    });
    const coldRequests = requests() - before;
    if (characters !== fake.fake.world.veteran.characters.size) {
      throw new Error(`expected the veteran account's characters, read ${characters}`);
    }
    before = requests();
    const warmMs = await timed(() => readHoldings(gw2, KEY));
    const warmRequests = requests() - before;
    // The seeds' requests, counted without their latency on a KV of their own.
    fake.fake.control.setLatency(0);
    using seedsKv = await Deno.openKv(":memory:");
    before = requests();
    await seedsReads(client(fake, seedsKv));
    const sequentialRequests = requests() - before;
    const sequentialMs = sequentialRequests * RANKING_LATENCY_MS;
    fake.fake.control.setLatency(RANKING_LATENCY_MS);
    const share = (ms: number) => (100 * ms) / sequentialMs;
    return {
      figures: [
        { label: "cold", value: coldMs, unit: "ms", note: `${coldRequests} upstream requests` },
        { label: "cold: share of sequential", value: share(coldMs), unit: "%" },
        {
          label: "within 5 min",
          value: warmMs,
          unit: "ms",
          note: `${warmRequests} upstream requests`,
        },
        {
          label: "sequential, per character",
          value: sequentialMs,
          unit: "ms",
          note: `${sequentialRequests} requests × ${RANKING_LATENCY_MS} ms (the seeds' way)`,
        },
      ],
      targets: [],
    };
  },
};
