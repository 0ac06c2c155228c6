import assert from "node:assert/strict";
import { startDeadline } from "../../src/async/deadline.ts";
import { SharedWork } from "../../src/gw2/shared_work.ts";
import { ManualClock } from "../support/clock.ts";

Deno.test("SharedWork lasts as long as its latest waiter and is abandoned by the last to leave", () => {
  const clock = new ManualClock({ start: 0 });
  using short = startDeadline(clock, 1_000);
  using long = startDeadline(clock, 5_000);
  const work = new SharedWork();
  assert.equal(work.abandoned, true, "nobody joined yet");
  const first = { deadline: short };
  const second = { deadline: long };
  work.join(first);
  work.join(second);
  work.join(second);
  assert.equal(work.remainingMs(), 5_000);
  assert.equal(work.leave(second), false);
  assert.equal(work.remainingMs(), 1_000);
  assert.equal(work.signal.aborted, false);
  assert.equal(work.leave(first), true);
  assert.equal(work.signal.aborted, true);
  assert.equal(work.remainingMs(), 0);
  assert.equal(work.leave(first), false, "leaving twice changes nothing");
});

Deno.test("SharedWork with an unbounded waiter is unbounded", () => {
  const work = new SharedWork();
  work.join({ deadline: undefined });
  assert.equal(work.remainingMs(), Infinity);
  assert.equal(work.abandoned, false);
});
