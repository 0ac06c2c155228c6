import assert from "node:assert/strict";
import {
  currentDeadline,
  deadlineAfter,
  DeadlineExceededError,
  isExpired,
  remainingMs,
  startDeadline,
  unlessAborted,
  withinDeadline,
} from "../../src/async/deadline.ts";
import { ManualClock } from "../support/clock.ts";

Deno.test("startDeadline() aborts its signal when the time is up, on the clock", async () => {
  const clock = new ManualClock({ start: 0 });
  using deadline = startDeadline(clock, 1_000);
  assert.equal(deadline.remainingMs(), 1_000);
  clock.advance(400);
  assert.equal(deadline.remainingMs(), 600);
  assert.equal(isExpired(deadline), false);
  clock.advance(600);
  await Promise.resolve();
  assert.equal(deadline.signal.aborted, true);
  assert.ok(deadline.signal.reason instanceof DeadlineExceededError);
  assert.equal(deadline.signal.reason.ms, 1_000);
  assert.equal(deadline.remainingMs(), 0);
  assert.equal(isExpired(deadline), true);
});

Deno.test("a disposed deadline releases its timer and never aborts", () => {
  const clock = new ManualClock({ start: 0 });
  const deadline = startDeadline(clock, 1_000);
  assert.equal(clock.pendingSleeps, 1);
  deadline[Symbol.dispose]();
  assert.equal(clock.pendingSleeps, 0);
  clock.advance(5_000);
  assert.equal(deadline.signal.aborted, false);
});

Deno.test("remainingMs() and isExpired() treat no deadline as unbounded", () => {
  assert.equal(remainingMs(undefined), Infinity);
  assert.equal(isExpired(undefined), false);
});

Deno.test("unlessAborted() returns the value, passes a rejection, or gives up on abort", async () => {
  const controller = new AbortController();
  assert.deepEqual(await unlessAborted(Promise.resolve(7), controller.signal), { value: 7 });
  await assert.rejects(unlessAborted(Promise.reject(new Error("no")), controller.signal), /no/);
  const pending = unlessAborted(new Promise<number>(() => {}), controller.signal);
  controller.abort();
  assert.equal(await pending, undefined);
  const late = Promise.reject(new Error("late"));
  assert.equal(await unlessAborted(late, controller.signal), undefined, "already aborted");
});

Deno.test("deadlineAfter() passes its extra time after the first deadline, with no timer before", async () => {
  const clock = new ManualClock({ start: 0 });
  using work = startDeadline(clock, 1_000);
  using answerBy = deadlineAfter(clock, work, 500);
  assert.equal(clock.pendingSleeps, 1, "only the first deadline's timer while the work runs");
  assert.equal(answerBy.remainingMs(), 1_500);
  clock.advance(1_000);
  await Promise.resolve();
  assert.equal(work.signal.aborted, true);
  assert.equal(answerBy.signal.aborted, false);
  assert.equal(answerBy.remainingMs(), 500);
  clock.advance(499);
  await Promise.resolve();
  assert.equal(answerBy.signal.aborted, false);
  clock.advance(1);
  await Promise.resolve();
  assert.equal(answerBy.signal.aborted, true);
  assert.ok(answerBy.signal.reason instanceof DeadlineExceededError);
  assert.equal(answerBy.signal.reason.ms, 1_500);
  assert.equal(answerBy.remainingMs(), 0);
});

Deno.test("a disposed deadlineAfter() arms nothing, even when the first deadline passes later", async () => {
  const clock = new ManualClock({ start: 0 });
  const work = startDeadline(clock, 1_000);
  const answerBy = deadlineAfter(clock, work, 500);
  answerBy[Symbol.dispose]();
  clock.advance(1_000);
  await Promise.resolve();
  assert.equal(work.signal.aborted, true);
  assert.equal(clock.pendingSleeps, 0, "no timer armed after disposal");
  clock.advance(1_000);
  assert.equal(answerBy.signal.aborted, false);
  work[Symbol.dispose]();
});

Deno.test("withinDeadline(): the deadline is the work's through every await and timer, and only its", async () => {
  const clock = new ManualClock();
  using first = startDeadline(clock, 1_000);
  using second = startDeadline(clock, 2_000);
  const seen = async () => {
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    return currentDeadline();
  };
  const [a, b, none] = await Promise.all([
    withinDeadline(first, seen),
    withinDeadline(second, seen),
    seen(),
  ]);
  assert.equal(a, first);
  assert.equal(b, second);
  assert.equal(none, undefined, "work started outside any deadline has none");
  const inner = await withinDeadline(first, () => withinDeadline(second, seen));
  assert.equal(inner, second, "the innermost deadline wins");
});
