/**
 * Holdings benchmark: reading everything the 19-character fake account holds, with 300 ms of
 * upstream latency per request, three ways:
 *
 * - `parallel (cold)`: `readHoldings` — one cached `/v2/tokeninfo`, then storage, bank, shared
 *   slots and every bag (`/v2/characters?ids=all`) at once;
 * - `parallel (warm)`: the same call again within five minutes (every read from KV);
 * - `sequential, per character`: the same data read the way the seeds did, one request after
 *   another with one `/v2/characters/:name/inventory` per character.
 *
 * Run: `deno run --allow-read bench/holdings.ts [latencyMs]` (real time; about 8 s at 300 ms).
 *
 * @module
 */

import { readHoldings } from "../src/account/holdings.ts";
import { systemClock } from "../src/clock.ts";
import { createGw2Client, type InstrumentedGw2Client } from "../src/gw2/client.ts";
import { silentLogger } from "../src/log.ts";
import { createFakeGw2, type FakeGw2, TEST_KEYS } from "../tests/fake_gw2/mod.ts";

const latencyMs = Number(Deno.args[0] ?? 300);
const key = TEST_KEYS.veteran;

interface Row {
  readonly scenario: string;
  readonly requests: number;
  readonly ms: number;
}

function client(fake: FakeGw2, kv: Deno.Kv): InstrumentedGw2Client {
  return createGw2Client({
    baseUrl: "http://gw2.bench",
    kv,
    clock: systemClock,
    log: silentLogger,
    rate: { burst: 300, perSec: 5 },
    fetch: (input, init) => fake.fetch(new Request(input, init)),
  });
}

async function measure(scenario: string, fake: FakeGw2, run: () => Promise<unknown>): Promise<Row> {
  const before = fake.control.requests.length;
  const started = performance.now();
  await run();
  const ms = Math.round(performance.now() - started);
  return { scenario, requests: fake.control.requests.length - before, ms };
}

/** The seeds' `getOwnedItems`, plus material storage: every read one after another. */
async function sequential(gw2: InstrumentedGw2Client): Promise<void> {
  await gw2.accountMaterials(key);
  const names = (await gw2.characters(key)).value;
  for (const name of names) await gw2.characterInventory(key, name);
  await gw2.accountBank(key);
  await gw2.accountInventory(key);
}

const fake = createFakeGw2();
fake.control.setLatency(latencyMs);
const rows: Row[] = [];
{
  using kv = await Deno.openKv(":memory:");
  const gw2 = client(fake, kv);
  let characters = 0;
  rows.push(
    await measure("parallel (cold)", fake, async () => {
      characters = (await readHoldings(gw2, key)).characters;
    }),
  );
  rows.push(await measure("parallel (warm, within 5 min)", fake, () => readHoldings(gw2, key)));
  if (characters !== 19) throw new Error(`expected 19 characters, read ${characters}`);
}
{
  using kv = await Deno.openKv(":memory:");
  const gw2 = client(fake, kv);
  rows.push(await measure("sequential, per character (seeds)", fake, () => sequential(gw2)));
}

const baseline = rows[2]?.ms ?? 1;
// deno-lint-ignore no-console -- a benchmark prints its table
console.log(`Holdings of the 19-character account, ${latencyMs} ms upstream latency\n`);
// deno-lint-ignore no-console -- a benchmark prints its table
console.table(rows.map((row) => ({
  ...row,
  "vs sequential": `${(row.ms / baseline).toFixed(3)}×`,
})));
