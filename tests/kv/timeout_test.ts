import assert from "node:assert/strict";
import { KvTimeoutError, withKvTimeout } from "../../src/kv/timeout.ts";
import { ManualClock } from "../support/clock.ts";

Deno.test("withKvTimeout() returns the operation's value and passes its error", async () => {
  const clock = new ManualClock();
  const bound = { ms: 100, clock };
  assert.equal(await withKvTimeout(bound, () => Promise.resolve(3)), 3);
  await assert.rejects(withKvTimeout(bound, () => Promise.reject(new Error("kv"))), /kv/);
  assert.equal(clock.pendingSleeps, 0, "the timer is released");
});

Deno.test("withKvTimeout() gives up on an operation that never settles, and tells it to stop", async () => {
  const clock = new ManualClock();
  let stopped = false;
  const pending = withKvTimeout({ ms: 100, clock }, (signal) => {
    signal.addEventListener("abort", () => (stopped = true));
    return new Promise(() => {});
  });
  clock.advance(99);
  clock.advance(1);
  await assert.rejects(pending, (error) => {
    assert.ok(error instanceof KvTimeoutError);
    assert.match(error.message, /did not answer within 100 ms/);
    return true;
  });
  assert.equal(stopped, true);
});
