/**
 * Ranking benchmark: `priory_legendary_ranking` for the 19-character fake account, with 300 ms of
 * upstream latency per request, against the same requests sent one after another with every
 * character's inventory read on its own (what the seeds did):
 *
 * - `cold`: an empty KV — the 21 gen-1 trees (nine levels, ~310 recipe searches 16 at a time;
 *   ~336 requests in all, beyond the 300-token burst), the holdings and the prices upstream;
 * - `warm trees`: six minutes later on another instance (trees are cached a day; holdings five
 *   minutes and prices one minute, so those are read again): the everyday case once the trees
 *   are warm — what the background pre-warm of legendary trees provides;
 * - `retry within 5 min`: another instance right after: everything from KV;
 * - `sequential …`: each measured run's upstream requests replayed one at a time against a
 *   fresh fake, `/v2/characters?ids=all` replaced by `/v2/characters` plus one
 *   `/v2/characters/:name/inventory` per character. The cold replay takes minutes, so it is
 *   estimated as requests × latency unless `--replay-cold` is given.
 *
 * Run: `deno run --allow-read bench/ranking.ts [latencyMs] [--replay-cold]` (real time; about
 * 20 s at 300 ms, two minutes more with `--replay-cold`).
 *
 * @module
 */

import type { Clock } from "../src/clock.ts";
import { systemClock } from "../src/clock.ts";
import { createGw2Client, type InstrumentedGw2Client } from "../src/gw2/client.ts";
import { silentLogger } from "../src/log.ts";
import { prioryLegendaryRanking } from "../src/tools/priory_legendary_ranking.ts";
import {
  createFakeGw2,
  type FakeGw2,
  type FakeRequestLog,
  TEST_KEYS,
} from "../tests/fake_gw2/mod.ts";

const latencyMs = Number(Deno.args.find((arg) => !arg.startsWith("--")) ?? 300);
const replayCold = Deno.args.includes("--replay-cold");
const key = TEST_KEYS.veteran;
const BASE = "http://gw2.bench";

interface Row {
  readonly scenario: string;
  readonly requests: number;
  readonly ms: number;
  readonly "vs sequential"?: string;
}

function client(fake: FakeGw2, kv: Deno.Kv, clock: Clock = systemClock): InstrumentedGw2Client {
  return createGw2Client({
    baseUrl: BASE,
    kv,
    clock,
    log: silentLogger,
    rate: { burst: 300, perSec: 5 },
    fetch: (input, init) => fake.fetch(new Request(input, init)),
  });
}

/** A clock `offsetMs` ahead: cached entries look that much older. */
function aheadBy(offsetMs: number): Clock {
  return {
    now: () => systemClock.now() + offsetMs,
    sleep: (ms, signal) => systemClock.sleep(ms, signal),
    timer: (ms, signal) => systemClock.timer(ms, signal),
  };
}

async function rank(gw2: InstrumentedGw2Client): Promise<number> {
  const result = await prioryLegendaryRanking.handle({ limit: 10 }, {
    gw2,
    log: silentLogger,
    gw2Key: key,
  });
  if (result.characters !== 19) {
    throw new Error(`expected 19 characters, read ${result.characters}`);
  }
  return result.priced;
}

async function measure(
  scenario: string,
  fake: FakeGw2,
  run: () => Promise<unknown>,
): Promise<Row & { log: FakeRequestLog[] }> {
  const before = fake.control.requests.length;
  const started = performance.now();
  await run();
  const ms = Math.round(performance.now() - started);
  const log = fake.control.requests.slice(before);
  return { scenario, requests: log.length, ms, log };
}

/** The seeds' way: every request after the previous one, one inventory read per character. */
function seedsRequests(
  log: readonly FakeRequestLog[],
  characterNames: readonly string[],
): string[] {
  return log.flatMap((request) => {
    const url = `${BASE}${request.path}?${request.query}`;
    if (request.path !== "/v2/characters" || !request.query.includes("ids=all")) return [url];
    return [
      `${BASE}/v2/characters`,
      ...characterNames.map((name) =>
        `${BASE}/v2/characters/${encodeURIComponent(name)}/inventory`
      ),
    ];
  });
}

async function replay(urls: readonly string[]): Promise<number> {
  const fake = createFakeGw2();
  fake.control.setLatency(latencyMs);
  const started = performance.now();
  for (const url of urls) {
    const response = await fake.fetch(
      new Request(url, { headers: { authorization: `Bearer ${key}` } }),
    );
    await response.body?.cancel();
  }
  return Math.round(performance.now() - started);
}

const fake = createFakeGw2();
fake.control.setLatency(latencyMs);
const characterNames = [...fake.world.veteran.characters.keys()];
using kv = await Deno.openKv(":memory:");
let priced = 0;
const cold = await measure("cold (empty KV)", fake, async () => {
  priced = await rank(client(fake, kv));
});
const warm = await measure(
  "warm trees (holdings, prices read)",
  fake,
  () => rank(client(fake, kv, aheadBy(6 * 60_000))),
);
const retry = await measure(
  "retry within 5 min, another instance",
  fake,
  () => rank(client(fake, kv, aheadBy(6 * 60_000 + 20_000))),
);

const coldUrls = seedsRequests(cold.log, characterNames);
const warmUrls = seedsRequests(warm.log, characterNames);
const coldBaseline = replayCold ? await replay(coldUrls) : coldUrls.length * latencyMs;
const warmBaseline = await replay(warmUrls);
const ratio = (ms: number, baseline: number) => `${(ms / baseline).toFixed(3)}×`;
const rows: Row[] = [
  {
    scenario: cold.scenario,
    requests: cold.requests,
    ms: cold.ms,
    "vs sequential": ratio(cold.ms, coldBaseline),
  },
  {
    scenario: warm.scenario,
    requests: warm.requests,
    ms: warm.ms,
    "vs sequential": ratio(warm.ms, warmBaseline),
  },
  { scenario: retry.scenario, requests: retry.requests, ms: retry.ms },
  {
    scenario: `sequential, per character: cold${replayCold ? "" : " (requests × latency)"}`,
    requests: coldUrls.length,
    ms: coldBaseline,
  },
  {
    scenario: "sequential, per character: warm trees",
    requests: warmUrls.length,
    ms: warmBaseline,
  },
];

// deno-lint-ignore no-console -- a benchmark prints its table
console.log(
  `Legendary ranking (${priced} legendaries priced) for the 19-character account, ${latencyMs} ms upstream latency\n`,
);
// deno-lint-ignore no-console -- a benchmark prints its table
console.table(rows);
