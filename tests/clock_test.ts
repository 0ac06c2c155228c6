import assert from "node:assert/strict";
import { systemClock } from "../src/clock.ts";
import { ManualClock } from "./support/clock.ts";

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
  await t.step("delays: unsignalled sleeps advance at once, timeouts wait", async () => {
    const clock = new ManualClock({ start: 0, advance: "delays" });
    await clock.sleep(250);
    assert.equal(clock.now(), 250);
    const timeout = new AbortController();
    const pending = clock.sleep(1000, timeout.signal);
    assert.equal(clock.pendingSleeps, 1);
    clock.advance(1000);
    await pending;
    assert.deepEqual(clock.delays, [250]);
    assert.deepEqual(clock.sleeps, [250, 1000]);
  });
  await t.step("all: every sleep advances at once", async () => {
    const clock = new ManualClock({ start: 0, advance: "all" });
    await clock.sleep(5, new AbortController().signal);
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
