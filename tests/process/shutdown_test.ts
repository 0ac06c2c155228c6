import assert from "node:assert/strict";
import { shutDown, type ShutdownSteps } from "../../src/process/shutdown.ts";
import { silentLogger } from "../../src/log.ts";
import { ManualClock } from "../support/clock.ts";
import { captureLogs } from "../support/log.ts";

/** Steps that record their order; `drain` settles when the test says so. */
function recordingSteps(): { steps: ShutdownSteps; calls: string[]; finishDrain: () => void } {
  const calls: string[] = [];
  const drained = Promise.withResolvers<void>();
  return {
    calls,
    finishDrain: () => {
      calls.push("requests finished");
      drained.resolve();
    },
    steps: {
      stopScheduled: () => void calls.push("stopScheduled"),
      drain: () => {
        calls.push("drain");
        return drained.promise;
      },
      abort: () => {
        calls.push("abort");
        return Promise.resolve();
      },
      release: () => void calls.push("release"),
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000; turn++) {
    if (condition()) return;
    await Promise.resolve();
  }
  throw new Error("Condition not reached");
}

Deno.test("shutDown() lets in-flight requests finish before aborting anything or closing KV", async () => {
  const clock = new ManualClock();
  const { steps, calls, finishDrain } = recordingSteps();
  const outcome = shutDown(steps, { clock, log: silentLogger, signal: "SIGINT", graceMs: 3000 });
  await until(() => clock.pendingSleeps === 1);
  clock.advance(2999);
  assert.deepEqual(calls, ["stopScheduled", "drain"], "nothing aborted within the grace period");
  finishDrain();
  assert.equal(await outcome, "drained");
  assert.deepEqual(calls, ["stopScheduled", "drain", "requests finished", "abort", "release"]);
  assert.equal(clock.pendingSleeps, 0, "the grace timer is released");
});

Deno.test("shutDown() aborts what outlives the grace period and still releases, within the bound", async () => {
  const clock = new ManualClock();
  const { steps, calls } = recordingSteps();
  const logs = captureLogs();
  const start = clock.now();
  const outcome = shutDown(steps, {
    clock,
    log: logs.log,
    signal: "SIGINT",
    graceMs: 3000,
    abortMs: 1000,
  });
  await until(() => clock.pendingSleeps === 1);
  clock.advance(3000);
  await until(() => calls.includes("abort") && clock.pendingSleeps === 1);
  assert.deepEqual(calls, ["stopScheduled", "drain", "abort"], "KV stays open while aborting");
  clock.advance(1000);
  assert.equal(await outcome, "cut");
  assert.deepEqual(calls, ["stopScheduled", "drain", "abort", "release"]);
  assert.equal(clock.now() - start, 4000, "done before a platform's 5 s SIGKILL");
  assert.ok(logs.lines.some((line) => line.includes("aborting requests still in flight")));
});

Deno.test("shutDown() keeps KV open until the background jobs it stopped first have settled", async () => {
  const clock = new ManualClock();
  const { steps, calls, finishDrain } = recordingSteps();
  const jobs = Promise.withResolvers<void>();
  const outcome = shutDown({
    ...steps,
    stopScheduled: () => {
      calls.push("stopScheduled");
      return jobs.promise;
    },
  }, { clock, log: silentLogger, signal: "SIGINT" });
  finishDrain();
  await until(() => calls.includes("abort") && clock.pendingSleeps === 1);
  assert.deepEqual(calls, ["stopScheduled", "drain", "requests finished", "abort"]);
  clock.advance(500);
  calls.push("jobs stopped");
  jobs.resolve();
  assert.equal(await outcome, "drained");
  assert.deepEqual(calls.slice(-2), ["jobs stopped", "release"]);
  assert.equal(clock.pendingSleeps, 0);
});

Deno.test("shutDown() closes KV at the bound under background jobs that do not stop", async () => {
  const clock = new ManualClock();
  const { steps, calls, finishDrain } = recordingSteps();
  const logs = captureLogs();
  const start = clock.now();
  const outcome = shutDown({
    ...steps,
    stopScheduled: () => new Promise<void>(() => {}),
  }, { clock, log: logs.log, signal: "SIGTERM", graceMs: 3000, abortMs: 1000 });
  clock.advance(1000);
  finishDrain();
  await until(() => calls.includes("abort") && clock.pendingSleeps === 1);
  clock.advance(3000);
  assert.equal(await outcome, "drained");
  assert.equal(calls.at(-1), "release");
  assert.equal(clock.now() - start, 4000, "within the same 4 s");
  assert.ok(logs.lines.some((line) => line.includes("background jobs still running")));
});
