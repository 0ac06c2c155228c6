/**
 * Two instances on one KV whose clocks disagree by an hour (two injected clocks moved together):
 * what the shared budget and the shared cache let the skew do.
 */

import assert from "node:assert/strict";
import { clientOverFake } from "../../support/fake_client.ts";
import { TokenBucket } from "../../../src/gw2/token_bucket.ts";
import { createFakeGw2, WELL_KNOWN } from "../../fake_gw2/mod.ts";
import { ManualClock } from "../../support/clock.ts";
import { openMemoryKv } from "../../support/kv.ts";
import { captureLogs, logRecords } from "../../support/log.ts";

const HOUR = 3_600_000;
const BURST = 50;
const PER_SEC = 5;
const KEY = ["test", "skew-bucket"];

/** Two instances: `lagging` on the true time, `leading` an hour ahead. */
function twoClocks(): {
  lagging: ManualClock;
  leading: ManualClock;
  advance: (ms: number) => void;
} {
  const lagging = new ManualClock();
  const leading = new ManualClock({ start: lagging.now() + HOUR });
  return {
    lagging,
    leading,
    advance: (ms) => {
      lagging.advance(ms);
      leading.advance(ms);
    },
  };
}

/** Takes tokens until refused; returns how many were admitted. */
async function takeAll(bucket: TokenBucket): Promise<number> {
  let admitted = 0;
  while ((await bucket.tryTake()).admitted) admitted++;
  return admitted;
}

/**
 * Both instances take everything they can every 200 ms (one refill) for `seconds`, taking turns
 * at going first; returns what each was admitted.
 */
async function contend(
  buckets: { lagging: TokenBucket; leading: TokenBucket },
  advance: (ms: number) => void,
  seconds: number,
): Promise<{ lagging: number; leading: number }> {
  const admitted = { lagging: 0, leading: 0 };
  for (let step = 0; step < (seconds * 1000) / 200; step++) {
    advance(200);
    const order = step % 2 === 0
      ? ["lagging", "leading"] as const
      : ["leading", "lagging"] as const;
    for (const name of order) admitted[name] += await takeAll(buckets[name]);
  }
  return admitted;
}

Deno.test("clock skew: an instance an hour behind is not starved by one an hour ahead", async () => {
  using kv = await openMemoryKv();
  const { lagging, leading, advance } = twoClocks();
  const { log, lines } = captureLogs(lagging);
  const buckets = {
    lagging: new TokenBucket({ kv, key: KEY, burst: BURST, perSec: PER_SEC, clock: lagging, log }),
    leading: new TokenBucket({ kv, key: KEY, burst: BURST, perSec: PER_SEC, clock: leading }),
  };
  // The measured defect: the leading instance took the burst, then every refill for 30 s.
  const burst = await takeAll(buckets.leading);
  assert.equal(burst, BURST);
  const after = await contend(buckets, advance, 30);
  const refilled = 30 * PER_SEC;
  assert.ok(after.lagging + after.leading <= refilled, `over-admitted: ${JSON.stringify(after)}`);
  assert.ok(after.lagging >= refilled / 2 - 1, `lagging starved: ${JSON.stringify(after)}`);
  const skew = logRecords(lines, "clock skew: another instance's clock runs ahead of this one");
  assert.equal(skew.length, 1, "logged once, when first seen");
  assert.ok(Math.abs(Number(skew[0]?.aheadMs) - HOUR) < 1000);
});

Deno.test("clock skew: an instance an hour ahead cannot over-admit from a bucket the other drained", async () => {
  using kv = await openMemoryKv();
  const { lagging, leading, advance } = twoClocks();
  const buckets = {
    lagging: new TokenBucket({ kv, key: KEY, burst: BURST, perSec: PER_SEC, clock: lagging }),
    leading: new TokenBucket({ kv, key: KEY, burst: BURST, perSec: PER_SEC, clock: leading }),
  };
  const drained = await takeAll(buckets.lagging);
  assert.equal(drained, BURST);
  // Its stored time is an hour behind the leading clock: an hour of refill, were it believed.
  assert.equal(
    await takeAll(buckets.leading),
    0,
    "the leading instance's first look credits nothing",
  );
  const after = await contend(buckets, advance, 30);
  assert.ok(
    after.lagging + after.leading <= 30 * PER_SEC,
    `admitted ${JSON.stringify(after)} in 30 s at ${PER_SEC}/s after the burst`,
  );
  assert.ok(after.leading > 0 && after.lagging > 0, JSON.stringify(after));
});

/** Two GW2 clients on one KV and one fake, each on its own clock. */
function twoClients(kv: Deno.Kv, clocks: { lagging: ManualClock; leading: ManualClock }) {
  const fake = createFakeGw2({ now: () => clocks.lagging.now() });
  const client = (clock: ManualClock) =>
    clientOverFake(kv, clock, fake, {
      coalesceWindowMs: 0,
      // What instances share is KV: judge its entries, not each process's own copy in memory
      // (judged the same way, by its own stamp; see record_memory_test.ts).
      memoryRecords: 0,
    });
  return {
    ahead: client(clocks.leading),
    behind: client(clocks.lagging),
    /** Upstream `/v2/items` requests so far. */
    itemRequests: () => fake.control.requests.filter((r) => r.path === "/v2/items").length,
  };
}

Deno.test("clock skew: a record stamped by a clock far ahead is not fresh for the other instance", async () => {
  using kv = await openMemoryKv();
  const { lagging, leading, advance } = twoClocks();
  const { ahead, behind, itemRequests } = twoClients(kv, { lagging, leading });
  const id = WELL_KNOWN.globOfEctoplasm;

  await ahead.items([id]);
  assert.equal(itemRequests(), 1);
  // Stamped an hour in this instance's future: fetched again rather than fresh for TTL + 1 h.
  assert.equal((await behind.items([id])).found.length, 1);
  assert.equal(itemRequests(), 2, "the far-future stamp was not trusted");
  // Now stamped by the lagging clock: an hour old for the leading instance, still within its TTL.
  await ahead.items([id]);
  assert.equal(itemRequests(), 2);
  advance(23 * HOUR - 1);
  await behind.items([id]);
  assert.equal(itemRequests(), 2, "fresh for the lagging instance within its own TTL");
  advance(1);
  await ahead.items([id]);
  assert.equal(
    itemRequests(),
    3,
    "the leading instance refetches once the TTL passed on its clock",
  );
});

Deno.test("clock skew: a record from a clock half a second ahead stays fresh for TTL + 0.5 s at most", async () => {
  using kv = await openMemoryKv();
  const lagging = new ManualClock();
  const leading = new ManualClock({ start: lagging.now() + 500 });
  const { ahead, behind, itemRequests } = twoClients(kv, { lagging, leading });
  const id = WELL_KNOWN.globOfEctoplasm;
  await ahead.items([id]);
  await behind.items([id]);
  assert.equal(itemRequests(), 1, "ordinary skew: the other instance's record is a hit");
  lagging.advance(24 * HOUR + 499);
  await behind.items([id]);
  assert.equal(itemRequests(), 1, "still fresh at TTL + 0.5 s − 1 ms");
  lagging.advance(1);
  await behind.items([id]);
  assert.equal(itemRequests(), 2, "refetched at TTL + the skew");
});
