import assert from "node:assert/strict";
import { oldestStaleAge, staleness } from "../src/staleness.ts";

Deno.test("staleness() is empty when fresh, and whole seconds (at least 1) when stale", () => {
  assert.deepEqual(staleness(undefined), {});
  assert.deepEqual(staleness(0), { stale_age_s: 1 });
  assert.deepEqual(staleness(1), { stale_age_s: 1 });
  assert.deepEqual(staleness(61_001), { stale_age_s: 62 });
});

Deno.test("oldestStaleAge() is the oldest of the stale ages, absent when every read was fresh", () => {
  assert.equal(oldestStaleAge(), undefined);
  assert.equal(oldestStaleAge(undefined, undefined), undefined);
  assert.equal(oldestStaleAge(undefined, 3_000, 1_000), 3_000);
  assert.equal(oldestStaleAge(0), 0);
});
