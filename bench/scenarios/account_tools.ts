/**
 * The whole account's tools (issue 27) at the run's upstream latency: what a cold
 * `priory_trading_post` costs upstream for the fake's main account - 450 sales in its 90-day
 * history, read 200 a page (three requests, not one a row), its purchases, open orders and
 * delivery box, then the order books and prices - and the same call again within the five
 * minutes its account reads are cached; and the tokens (bytes / 4) of each default answer:
 * `priory_trading_post`, `priory_find_items` (a name query, a few ids, and 100 ids on the
 * 19-character account, the largest answer), `priory_account_wallet` with its gem exchange.
 * Priory's handler runs in this process without its background jobs, so the count is the call's
 * own; the name index is filled first, as the catalogue crawl would have.
 *
 * @module
 */

import { systemClock } from "../../src/async/clock.ts";
import { silentLogger } from "../../src/log.ts";
import { NameIndex } from "../../src/search/name_index.ts";
import { TEST_KEYS, WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import { localizedRecords } from "../../tests/fake_gw2/world/localized.ts";
import type { Figure, Scenario, Target } from "../scenario.ts";
import { servePrioryInProcess } from "../support/in_process.ts";
import { BENCH_TOKEN } from "../support/processes.ts";
import { timed } from "../support/stats.ts";
import { OPEN_BUDGET, structured, tokens, upstreamRequests } from "./calls.ts";

const TRADING_POST = "priory_trading_post";
const FIND_ITEMS = "priory_find_items";
const WALLET = "priory_account_wallet";

/** The contract's ceiling for each default answer of the account tools. */
const ANSWER_MAX_TOKENS = 2_500;
/**
 * A cold `priory_trading_post` for 450 sales: 3 + 1 history pages, 2 order lists, the box, the
 * books and the prices, and the names the index lacks: pages, never a request a row.
 */
const COLD_MAX_REQUESTS = 12;

/** The account tools scenario. */
export const accountTools: Scenario = {
  name: "account-tools",
  summary:
    "priory_trading_post cold (450-sale history: upstream requests, time) and within 5 min; tokens of the account tools' default answers",
  tools: [TRADING_POST, FIND_ITEMS],
  async run(ctx) {
    const fake = await ctx.startFake({ latencyMs: ctx.options.latencyMs, rate: OPEN_BUDGET });
    const world = fake.fake.world;
    using kv = await Deno.openKv(":memory:");
    // The names the crawl would have indexed, in English and German.
    const index = new NameIndex({
      kv,
      namespace: fake.url,
      log: silentLogger,
      clock: systemClock,
    });
    await index.putMany([...world.items.values()]);
    await index.putMany([...localizedRecords(world, "de").items.values()], "de");
    const server = servePrioryInProcess({ gw2ApiBase: fake.url, kv, token: BENCH_TOKEN });
    try {
      const main = ctx.client(server, { headers: { "x-gw2-key": TEST_KEYS.full } });
      const veteran = ctx.client(server, { headers: { "x-gw2-key": TEST_KEYS.veteran } });

      let answer: Record<string, unknown> = {};
      let before = upstreamRequests(fake);
      const coldMs = await timed(async () => {
        answer = structured(await main.callTool(TRADING_POST, {}), TRADING_POST);
      });
      const cold = fake.fake.control.requests.slice(before);
      const pages = cold.filter((request) =>
        request.path === "/v2/commerce/transactions/history/sells"
      ).length;
      before = upstreamRequests(fake);
      const warmMs = await timed(async () => {
        structured(await main.callTool(TRADING_POST, { window: "30d" }), TRADING_POST);
      });
      const warmRequests = upstreamRequests(fake) - before;

      const answers: [string, number][] = [
        [`${TRADING_POST} (main account, defaults)`, tokens(answer)],
        [
          `${FIND_ITEMS} query "mystic coin" (veteran)`,
          tokens(
            structured(await veteran.callTool(FIND_ITEMS, { query: "mystic coin" }), FIND_ITEMS),
          ),
        ],
        [
          `${FIND_ITEMS} query "Mystische Münze" (main)`,
          tokens(
            structured(await main.callTool(FIND_ITEMS, { query: "Mystische Münze" }), FIND_ITEMS),
          ),
        ],
        [
          `${FIND_ITEMS} 5 ids (veteran)`,
          tokens(structured(
            await veteran.callTool(FIND_ITEMS, {
              ids: [
                WELL_KNOWN.mysticCoin,
                WELL_KNOWN.globOfEctoplasm,
                WELL_KNOWN.theHunter,
                WELL_KNOWN.sunrise,
                WELL_KNOWN.twilight,
              ],
            }),
            FIND_ITEMS,
          )),
        ],
        [`${WALLET} (main account)`, tokens(structured(await main.callTool(WALLET, {}), WALLET))],
      ];
      // The largest answer: 100 ids the veteran holds most widely (not a default: reported).
      const widest = [...world.prices.keys()].slice(0, 100);
      const hundred = tokens(
        structured(await veteran.callTool(FIND_ITEMS, { ids: widest }), FIND_ITEMS),
      );
      const figures: Figure[] = [
        {
          label: `${TRADING_POST} cold`,
          value: coldMs,
          unit: "ms",
          note: `${cold.length} upstream requests (${pages} history pages for 450 sales)`,
        },
        { label: `${TRADING_POST} cold: upstream requests`, value: cold.length, unit: "requests" },
        {
          label: `${TRADING_POST} again within 5 min`,
          value: warmMs,
          unit: "ms",
          note: `${warmRequests} upstream requests`,
        },
        ...answers.map(([label, value]): Figure => ({ label, value, unit: "tokens" })),
        { label: `${FIND_ITEMS} 100 ids (veteran)`, value: hundred, unit: "tokens" },
      ];
      const targets: Target[] = [
        {
          label: `cold ${TRADING_POST} ≤ ${COLD_MAX_REQUESTS} requests (pages, not rows)`,
          value: cold.length,
          unit: "requests",
          max: COLD_MAX_REQUESTS,
        },
        ...answers.map(([label, value]): Target => ({
          label: `${label} ≤ ${ANSWER_MAX_TOKENS.toLocaleString("en-US")} tokens`,
          value,
          unit: "tokens",
          max: ANSWER_MAX_TOKENS,
        })),
      ];
      return { figures, targets };
    } finally {
      await server.close();
    }
  },
};
