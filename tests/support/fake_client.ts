/**
 * A real GW2 client over the in-process fake, as the GW2-layer tests build it: the fake answers
 * through `fetch`, the budget is roomy (300 + 5/s), jitter is fixed and logs are silent unless a
 * test passes its own.
 *
 * @module
 */

import { createGw2Client, type Gw2ClientOptions } from "../../src/gw2/client.ts";
import { silentLogger } from "../../src/log.ts";
import type { Clock } from "../../src/async/clock.ts";
import type { createFakeGw2 } from "../fake_gw2/mod.ts";

/** The fake as `createFakeGw2` returns it. */
export type Fake = ReturnType<typeof createFakeGw2>;

/**
 * A client on `kv` and `clock` whose upstream is `fake`; `options` override any default.
 *
 * @example
 * ```ts
 * const gw2 = clientOverFake(kv, clock, fake, { coalesceWindowMs: 0 });
 * ```
 */
export function clientOverFake(
  kv: Deno.Kv,
  clock: Clock,
  fake: Fake,
  options: Partial<Gw2ClientOptions> = {},
): ReturnType<typeof createGw2Client> {
  return createGw2Client({
    baseUrl: "http://gw2.fake",
    kv,
    clock,
    log: silentLogger,
    rate: { burst: 300, perSec: 5 },
    fetch: (input, init) => fake.fetch(new Request(input, init)),
    random: () => 0.5,
    ...options,
  });
}
