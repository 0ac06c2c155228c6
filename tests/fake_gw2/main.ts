/**
 * `deno task fake-gw2`: the fake GW2 API on 127.0.0.1 for trying Priory offline. Reads
 * FAKE_GW2_PORT (default 8787), FAKE_GW2_RATE_BURST, FAKE_GW2_RATE_PER_SEC and FAKE_GW2_MARKET
 * (`moving`: a Trading Post whose prices and quantities follow the clock); prints the base
 * URL and the test keys; stops on SIGINT/SIGTERM. Point the server at it with
 * `GW2_API_BASE=http://127.0.0.1:8787`.
 *
 * @module
 */

import {
  DEFAULT_RATE_BURST,
  DEFAULT_RATE_PER_SEC,
  MovingMarket,
  type RunningFakeGw2,
  startFakeGw2,
  TEST_KEYS,
} from "./mod.ts";

function numberFromEnv(name: string, fallback: number, valid: (value: number) => boolean): number {
  const raw = Deno.env.get(name);
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!valid(value)) {
    // deno-lint-ignore no-console -- startup failure goes to stderr for the human
    console.error(`fake-gw2: invalid ${name}: "${raw}"`);
    Deno.exit(1);
  }
  return value;
}

const port = numberFromEnv(
  "FAKE_GW2_PORT",
  8787,
  (value) => Number.isInteger(value) && value >= 0 && value <= 65535,
);
const rateBurst = numberFromEnv("FAKE_GW2_RATE_BURST", DEFAULT_RATE_BURST, (value) => value >= 1);
const ratePerSec = numberFromEnv(
  "FAKE_GW2_RATE_PER_SEC",
  DEFAULT_RATE_PER_SEC,
  (value) => value >= 0,
);

const marketSetting = Deno.env.get("FAKE_GW2_MARKET")?.trim() ?? "";
if (marketSetting !== "" && marketSetting !== "moving" && marketSetting !== "fixed") {
  // deno-lint-ignore no-console -- startup failure goes to stderr for the human
  console.error(`fake-gw2: invalid FAKE_GW2_MARKET: "${marketSetting}" (moving or fixed)`);
  Deno.exit(1);
}
const market = marketSetting === "moving" ? { market: new MovingMarket() } : {};

async function start(): Promise<RunningFakeGw2> {
  try {
    return await startFakeGw2({ port, rateBurst, ratePerSec, ...market });
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    // deno-lint-ignore no-console -- startup failure goes to stderr for the human
    console.error(
      `fake-gw2: port ${port} is in use (is the fake already running?); stop that process or set FAKE_GW2_PORT to a free port`,
    );
    Deno.exit(1);
  }
}

const fake = await start();
// The accounts were last played now, so priory_today's completions read as today's (a test, or
// POST /__control/modified, moves it across a reset).
fake.control.setLastModified(new Date().toISOString());
const keys = Object.entries(TEST_KEYS).map(([label, key]) => `  ${label.padEnd(16)} ${key}`);
// deno-lint-ignore no-console -- the banner is the point of the standalone task
console.log(
  [
    `Fake GW2 API listening on ${fake.url}`,
    `Control route: ${fake.url}/__control (see docs/fake-gw2.md)`,
    "Test keys:",
    ...keys,
  ].join("\n"),
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => {
    void fake.close().then(() => Deno.exit(0));
  });
}
