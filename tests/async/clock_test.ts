import assert from "node:assert/strict";
import { settlesWithin, systemClock } from "../../src/async/clock.ts";
import { ManualClock } from "../support/clock.ts";

Deno.test("systemClock.sleep() rejects with the signal's reason and clears its timer", async () => {
  const controller = new AbortController();
  const sleeping = systemClock.sleep(60_000, controller.signal);
  controller.abort(new Error("stop"));
  await assert.rejects(sleeping, /stop/);
});

Deno.test("systemClock.sleep() rejects at once on an aborted signal", async () => {
  await assert.rejects(systemClock.sleep(60_000, AbortSignal.abort(new Error("gone"))), /gone/);
});

Deno.test("ManualClock advances sleeps according to its mode", async (t) => {
  await t.step("none: every sleep waits for advance()", async () => {
    const clock = new ManualClock({ start: 0 });
    let woke = false;
    const sleeping = clock.sleep(100).then(() => woke = true);
    clock.advance(99);
    await Promise.resolve();
    assert.equal(woke, false);
    clock.advance(1);
    await sleeping;
    assert.equal(clock.now(), 100);
  });
  await t.step("delays: pauses advance at once, timers wait", async () => {
    const clock = new ManualClock({ start: 0, advance: "delays" });
    await clock.sleep(250);
    await clock.sleep(50, new AbortController().signal);
    assert.equal(clock.now(), 300);
    const timeout = new AbortController();
    const pending = clock.timer(1000, timeout.signal);
    assert.equal(clock.pendingSleeps, 1);
    assert.equal(clock.nextDue, 1300);
    clock.advance(1000);
    await pending;
    assert.deepEqual(clock.delays, [250, 50]);
    assert.deepEqual(clock.timers, [1000]);
    assert.deepEqual(clock.sleeps, [250, 50, 1000]);
    assert.equal(clock.nextDue, undefined);
  });
  await t.step("delays: a long pause fires the timers it passes", async () => {
    const clock = new ManualClock({ start: 0, advance: "delays" });
    let fired = false;
    const timer = clock.timer(100, new AbortController().signal).then(() => (fired = true));
    await clock.sleep(500);
    await timer;
    assert.equal(fired, true);
  });
  await t.step("all: every pause and timer advances at once", async () => {
    const clock = new ManualClock({ start: 0, advance: "all" });
    await clock.timer(5, new AbortController().signal);
    assert.equal(clock.now(), 5);
  });
  await t.step("an aborted sleep rejects and is forgotten", async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const pending = clock.sleep(10, controller.signal);
    controller.abort(new Error("cancelled"));
    await assert.rejects(pending, /cancelled/);
    assert.equal(clock.pendingSleeps, 0);
  });
});

Deno.test("settlesWithin() is true when the work settles first, either way, false when time runs out", async () => {
  const clock = new ManualClock();
  assert.equal(await settlesWithin(Promise.resolve(1), 1_000, clock), true);
  assert.equal(await settlesWithin(Promise.reject(new Error("no")), 1_000, clock), true);
  assert.equal(clock.pendingSleeps, 0, "the timer is released when the work wins");
  const never = settlesWithin(new Promise(() => {}), 1_000, clock);
  await Promise.resolve();
  clock.advance(1_000);
  assert.equal(await never, false);
});
