import assert from "node:assert/strict";
import { COUNTER_NAMES, Counters } from "../src/metrics.ts";

Deno.test("Counters add, snapshot and reset every named counter", () => {
  const counters = new Counters();
  assert.deepEqual(Object.keys(counters.snapshot()).sort(), [...COUNTER_NAMES].sort());
  counters.add("cacheHits");
  counters.add("cacheHits", 4);
  counters.add("upstreamRequests");
  const snapshot = counters.snapshot();
  assert.equal(snapshot.cacheHits, 5);
  assert.equal(snapshot.upstreamRequests, 1);
  counters.add("cacheHits");
  assert.equal(snapshot.cacheHits, 5, "a snapshot is a copy");
  counters.reset();
  assert.ok(Object.values(counters.snapshot()).every((value) => value === 0));
});
