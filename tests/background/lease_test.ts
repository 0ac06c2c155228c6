import assert from "node:assert/strict";
import { acquireLease, releaseLease, underLease } from "../../src/background/lease.ts";
import { ManualClock } from "../support/clock.ts";
import { openMemoryKv, tempKvFile } from "../support/kv.ts";

const KEY = ["background", "v1", "http://gw2.test", "warm-lease"];

Deno.test("acquireLease(): one owner at a time, the holder again, anyone once it expired", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const a = await acquireLease(kv, KEY, "a", 1000, clock);
  assert.ok(a);
  assert.equal(a.until, clock.now() + 1000);
  assert.equal(await acquireLease(kv, KEY, "b", 1000, clock), undefined);
  assert.ok(await acquireLease(kv, KEY, "a", 1000, clock), "re-entrant for its holder");
  clock.advance(1000);
  const b = await acquireLease(kv, KEY, "b", 1000, clock);
  assert.ok(b, "expired: taken over");
  assert.equal(await acquireLease(kv, KEY, "a", 1000, clock), undefined);
  await releaseLease(kv, b);
  assert.ok(await acquireLease(kv, KEY, "a", 1000, clock), "released: free");
});

Deno.test("releaseLease() leaves a lease that was taken over alone", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const stale = await acquireLease(kv, KEY, "a", 1000, clock);
  assert.ok(stale);
  clock.advance(2000);
  assert.ok(await acquireLease(kv, KEY, "b", 1000, clock));
  await releaseLease(kv, stale);
  assert.equal(await acquireLease(kv, KEY, "c", 1000, clock), undefined, "b still holds it");
});

Deno.test("acquireLease(): of many contenders on two handles of one file, exactly one wins", async () => {
  await using file = await tempKvFile();
  using first = await Deno.openKv(file.path);
  using second = await Deno.openKv(file.path);
  const clock = new ManualClock({ advance: "delays" });
  const results = await Promise.all(
    Array.from(
      { length: 8 },
      (_, index) =>
        acquireLease(index % 2 === 0 ? first : second, KEY, `owner-${index}`, 60_000, clock),
    ),
  );
  assert.equal(results.filter((lease) => lease !== undefined).length, 1);
});

Deno.test("underLease(): runs under the lease and gives it back, even when the run throws; refused while held", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const held = await acquireLease(kv, KEY, "other", 1000, clock);
  assert.ok(held);
  assert.deepEqual(await underLease(kv, KEY, "a", 1000, clock, () => Promise.resolve(1)), {
    leased: true,
  });
  await releaseLease(kv, held);
  assert.equal(await underLease(kv, KEY, "a", 1000, clock, () => Promise.resolve(1)), 1);
  assert.ok(await acquireLease(kv, KEY, "b", 1000, clock), "given back after the run");
  clock.advance(1000);
  await assert.rejects(
    underLease(kv, KEY, "a", 1000, clock, () => Promise.reject(new Error("failed"))),
    /failed/,
  );
  assert.ok(await acquireLease(kv, KEY, "c", 1000, clock), "given back after a failure");
});
