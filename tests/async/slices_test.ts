/**
 * Background work gives way (issue 31): `Foreground` (the tool calls in flight, and a bounded
 * wait for none) and `slices.ts` (a generator run a slice at a time, a pause between slices that
 * waits for the calls in flight).
 */
import assert from "node:assert/strict";
import { Foreground } from "../../src/async/foreground.ts";
import { type Pacer, runInSlices, runToEnd, slicePacer } from "../../src/async/slices.ts";
import { ManualClock } from "../support/clock.ts";

/** Steps yielding `count` times, then returning their number. */
function* steps(count: number): Generator<void, number, undefined> {
  for (let step = 0; step < count; step++) yield;
  return count;
}

/** A pacer on a counter: each look at its time is `perReading` ms later; pauses counted. */
function countingPacer(perReading: number, sliceMs: number): Pacer & { pauses: number } {
  let now = 0;
  const pacer = {
    pauses: 0,
    now: () => now += perReading,
    due: (start: number) => (now += perReading) - start >= sliceMs,
    pause: () => {
      pacer.pauses++;
      return Promise.resolve();
    },
  };
  return pacer;
}

Deno.test("runInSlices() runs steps to their end, pausing once per slice's worth of time", async () => {
  assert.equal(runToEnd(steps(10)), 10);
  // 1 ms passes at each reading of the clock, a slice has 4: a pause every few steps.
  const pacer = countingPacer(1, 4);
  assert.equal(await runInSlices(steps(100), pacer), 100);
  assert.ok(pacer.pauses >= 20 && pacer.pauses <= 100, `paused ${pacer.pauses} times`);
  // Time that never moves: one slice, no pause.
  const still = countingPacer(0, 4);
  assert.equal(await runInSlices(steps(100), still), 100);
  assert.equal(still.pauses, 0);
});

Deno.test("Foreground: busy while a call is in flight; idle() waits for none, at most its bound", async () => {
  const clock = new ManualClock();
  const foreground = new Foreground();
  await foreground.idle(1_000, clock); // none in flight: at once
  const leave = foreground.enter();
  const other = foreground.enter();
  assert.equal(foreground.busy, true);
  let idle = false;
  const waiting = foreground.idle(1_000, clock).then(() => idle = true);
  leave();
  leave(); // twice is once
  await Promise.resolve();
  assert.equal(idle, false, "one call still in flight");
  other();
  await waiting;
  assert.equal(foreground.busy, false);
  // A call that lasts: the wait ends at its bound.
  const long = foreground.enter();
  let bounded = false;
  const capped = foreground.idle(250, clock).then(() => bounded = true);
  clock.advance(249);
  await Promise.resolve();
  assert.equal(bounded, false);
  clock.advance(1);
  await capped;
  assert.equal(foreground.busy, true);
  long();
});

Deno.test("slicePacer(): a pause is a macrotask, and while a call runs a wait for it (bounded)", async () => {
  const clock = new ManualClock({ advance: "delays" });
  const foreground = new Foreground();
  const pacer = slicePacer({ clock, foreground, sliceMs: 8, yieldMs: 32, now: () => clock.now() });
  assert.equal(pacer.due(clock.now()), false);
  clock.advance(8);
  assert.equal(pacer.due(clock.now() - 8), true);
  await pacer.pause();
  assert.deepEqual(clock.delays, [0], "a macrotask: sleep(0)");
  const leave = foreground.enter();
  let paused = false;
  const pausing = pacer.pause().then(() => paused = true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(paused, false, "waits while the call runs");
  assert.deepEqual(clock.timers, [32]);
  leave();
  await pausing;
});
