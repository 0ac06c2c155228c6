import assert from "node:assert/strict";
import {
  entryAge,
  entryState,
  readVerdict,
  retentionMs,
} from "../../../src/gw2/cache/freshness.ts";

const policy = { ttlMs: 1000, staleForMs: 500 };

Deno.test("entryState() is fresh within the TTL, stale for a while after, then dead", () => {
  assert.equal(entryState(0, 0, policy), "fresh");
  assert.equal(entryState(0, 999, policy), "fresh");
  assert.equal(entryState(0, 1000, policy), "stale");
  assert.equal(entryState(0, 1499, policy), "stale");
  assert.equal(entryState(0, 1500, policy), "dead");
  assert.equal(entryState(0, 1000, { ttlMs: 1000, staleForMs: 0 }), "dead", "no stale window");
});

Deno.test("entryState() never trusts an entry stamped by a clock running well ahead of ours", () => {
  assert.equal(entryState(1000, 0, policy), "fresh", "a second ahead is ordinary skew: age 0");
  assert.equal(entryState(1001, 0, policy), "stale", "further ahead: fetch again");
  assert.equal(entryState(3_600_000, 0, policy), "stale");
  assert.equal(entryState(1001, 0, { ttlMs: 1000, staleForMs: 0 }), "dead", "no stale window");
  // Fresh for at most ttl + MAX_FUTURE_MS of the reader's clock, whatever the stamp.
  const fresh = [];
  for (let now = -5000; now <= 5000; now += 100) {
    if (entryState(2000, now, policy) === "fresh") fresh.push(now);
  }
  assert.equal(Math.max(...fresh) - Math.min(...fresh) + 100, policy.ttlMs + 1000);
});

Deno.test("entryAge() treats an entry from another instance's future as new", () => {
  assert.equal(entryAge(5000, 1000), 0);
  assert.equal(entryAge(1000, 5000), 4000);
});

Deno.test("retentionMs() gives the KV expiry", () => {
  assert.equal(retentionMs(policy), 1500);
});

Deno.test("readVerdict() answers fresh, falls back stale or when due for reading ahead, else none", () => {
  const policy = { ttlMs: 1_000, staleForMs: 5_000 };
  assert.equal(readVerdict(0, 999, policy), "answer");
  assert.equal(readVerdict(0, 1_000, policy), "fallback");
  assert.equal(readVerdict(0, 6_000, policy), "none");
  // Read ahead: fresh but expiring within 500 ms is re-read, kept as the fallback.
  assert.equal(readVerdict(0, 400, policy, 500), "answer");
  assert.equal(readVerdict(0, 500, policy, 500), "fallback");
  assert.equal(readVerdict(0, 6_000, policy, 500), "none");
});
