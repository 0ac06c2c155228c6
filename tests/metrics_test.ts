import assert from "node:assert/strict";
import { CallMeter, COUNTER_NAMES, Counters } from "../src/metrics.ts";

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

Deno.test("CallMeter: a call alone gets exactly its own requests and hits", () => {
  const counters = new Counters();
  const meter = new CallMeter(() => counters.snapshot());
  counters.add("upstreamRequests", 7); // before the call: not its cost
  const stop = meter.start();
  counters.add("upstreamRequests", 2);
  counters.add("cacheHits", 100);
  counters.add("cacheMisses", 3);
  assert.deepEqual(stop(), { upstream: 2, hits: 100, overlapped: false });
  const next = meter.start();
  assert.deepEqual(next(), { upstream: 0, hits: 0, overlapped: false }, "the next starts at 0");
});

Deno.test("CallMeter marks calls that overlapped another, whichever started first", () => {
  const counters = new Counters();
  const meter = new CallMeter(() => counters.snapshot());
  const first = meter.start();
  counters.add("upstreamRequests");
  const second = meter.start();
  counters.add("cacheHits", 5);
  assert.deepEqual(first(), { upstream: 1, hits: 5, overlapped: true }, "the second began");
  counters.add("upstreamRequests");
  assert.deepEqual(second(), { upstream: 1, hits: 5, overlapped: true }, "the first was running");
  const alone = meter.start();
  assert.equal(alone().overlapped, false, "both ended before it began");
  counters.reset();
  const reset = meter.start();
  counters.add("cacheHits", 2);
  assert.deepEqual(reset(), { upstream: 0, hits: 2, overlapped: false });
});
