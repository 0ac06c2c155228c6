/**
 * What buying really costs (`priory_recipe_tree`'s shopping list at order-book depth), through
 * Priory's handler in the bench process over the fake's books, without background jobs:
 *
 * - for the 21 gen-1 legendaries, one after another on one KV: `depthExtra` as a share of the
 *   list's unit-price cost (`buyCost − depthExtra`), and the `/v2/commerce/listings` requests
 *   each tree made;
 * - the listings read's cost in a cold tree: Sunrise on a fresh KV, against the same on a fresh
 *   KV whose books were read beforehand (everything else cold), interleaved pairs;
 * - the extra requests of a huge book (the fake answers 502 for every request naming it): a
 *   cold Sunrise with Glob of Ectoplasm's book made huge.
 *
 * @module
 */

import { systemClock } from "../../src/async/clock.ts";
import { createGw2Client } from "../../src/gw2/client.ts";
import { silentLogger } from "../../src/log.ts";
import { GEN1_LEGENDARY_IDS, WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import type { BenchFake, Scenario } from "../scenario.ts";
import { servePrioryInProcess } from "../support/in_process.ts";
import { BENCH_TOKEN } from "../support/processes.ts";
import type { McpWire } from "../support/wire.ts";
import { median, timed } from "../support/stats.ts";
import { OPEN_BUDGET, RECIPE_TREE, structured, tokens } from "./calls.ts";

const LISTINGS = "/v2/commerce/listings";

/** The summary and list fields the scenario reads. */
interface DepthTree {
  readonly summary: { readonly buyCost: number; readonly depthExtra: number };
  readonly toBuy: readonly { readonly id?: number; readonly unit?: number }[];
}

function listingsRequests(fake: BenchFake): number {
  return fake.fake.control.requests.filter((request) => request.path === LISTINGS).length;
}

async function tree(client: McpWire, itemId: number): Promise<DepthTree & object> {
  return structured(await client.callTool(RECIPE_TREE, { itemId }), RECIPE_TREE) as
    & DepthTree
    & object;
}

/** The order-book scenario. */
export const orderBook: Scenario = {
  name: "order-book",
  summary: "trees priced at order-book depth: depthExtra share, listings requests, added latency",
  tools: [RECIPE_TREE],
  async run(ctx) {
    const { latencyMs, quick } = ctx.options;
    const fake = await ctx.startFake({ latencyMs, rate: OPEN_BUDGET });

    // The 21 gen-1 trees, one after another on one KV.
    const shares: number[] = [];
    const perTree: number[] = [];
    let largest = 0;
    {
      using kv = await Deno.openKv(":memory:");
      const priory = servePrioryInProcess({ gw2ApiBase: fake.url, kv, token: BENCH_TOKEN });
      try {
        const client = ctx.client(priory);
        for (const itemId of GEN1_LEGENDARY_IDS) {
          const before = listingsRequests(fake);
          const result = await tree(client, itemId);
          perTree.push(listingsRequests(fake) - before);
          const { buyCost, depthExtra } = result.summary;
          shares.push(depthExtra / (buyCost - depthExtra));
          largest = Math.max(largest, tokens(result));
        }
      } finally {
        await priory.close();
      }
    }

    // A cold Sunrise with and without the listings read (books read beforehand).
    const sunrise = WELL_KNOWN.sunrise;
    const withRead: number[] = [];
    const withoutRead: number[] = [];
    for (let pair = 0; pair < (quick ? 2 : 5); pair++) {
      let bought: number[] = [];
      for (const booksFirst of [false, true]) {
        using kv = await Deno.openKv(":memory:");
        if (booksFirst) {
          const reader = createGw2Client({
            baseUrl: fake.url,
            kv,
            clock: systemClock,
            log: silentLogger,
            rate: { burst: 300, perSec: 5 },
          });
          await reader.listings(bought);
        }
        const alone = servePrioryInProcess({ gw2ApiBase: fake.url, kv, token: BENCH_TOKEN });
        try {
          const before = listingsRequests(fake);
          let result: DepthTree | undefined;
          const ms = await timed(async () => {
            result = await tree(ctx.client(alone), sunrise);
          });
          if (booksFirst) {
            if (listingsRequests(fake) !== before) throw new Error("the books were not cached");
            withoutRead.push(ms);
          } else {
            withRead.push(ms);
            bought = (result?.toBuy ?? []).flatMap((line) =>
              line.unit !== undefined && line.id !== undefined ? [line.id] : []
            );
          }
        } finally {
          await alone.close();
        }
      }
    }

    // A huge book: the 502 split's extra requests.
    let hugeRequests: number;
    {
      using kv = await Deno.openKv(":memory:");
      fake.fake.control.setBook(WELL_KNOWN.globOfEctoplasm, "huge");
      const alone = servePrioryInProcess({ gw2ApiBase: fake.url, kv, token: BENCH_TOKEN });
      try {
        const before = listingsRequests(fake);
        await tree(ctx.client(alone), sunrise);
        hugeRequests = listingsRequests(fake) - before;
      } finally {
        fake.fake.control.setBook(WELL_KNOWN.globOfEctoplasm, undefined);
        await alone.close();
      }
    }

    const percent = (share: number) => Math.round(share * 1_000) / 10;
    const added = median(withRead) - median(withoutRead);
    return {
      figures: [
        {
          label: "depthExtra / unit-price list, median",
          value: percent(median(shares)),
          unit: "%",
          note: "21 gen-1 trees, quantity 1",
        },
        {
          label: "depthExtra / unit-price list, max",
          value: percent(Math.max(...shares)),
          unit: "%",
        },
        {
          label: "listings requests per tree, max",
          value: Math.max(...perTree),
          unit: "requests",
          note: `${perTree.reduce((a, b) => a + b, 0)} for the 21 trees on one KV`,
        },
        {
          label: "cold tree (Sunrise), median",
          value: median(withRead),
          unit: "ms",
          note: `${
            median(withoutRead).toFixed(0)
          } ms with its books already read; ${withRead.length} pairs at ${latencyMs} ms`,
        },
        { label: "added by the listings read, median", value: added, unit: "ms" },
        {
          label: "listings requests, one huge book",
          value: hugeRequests,
          unit: "requests",
          note: "cold Sunrise with Glob of Ectoplasm's book answering 502",
        },
        { label: "largest gen-1 tree with its list", value: largest, unit: "tokens" },
      ],
      targets: [
        {
          label: "a tree reads listings in ⌈bought / 200⌉ = 1 request",
          value: Math.max(...perTree),
          unit: "requests",
          max: 1,
        },
        {
          label: "a legendary tree with its list ≤ 10,000 tokens",
          value: largest,
          unit: "tokens",
          max: 10_000,
        },
      ],
    };
  },
};
