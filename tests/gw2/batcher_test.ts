import assert from "node:assert/strict";
import { type Deadline, startDeadline } from "../../src/async/deadline.ts";
import {
  type BatchSource,
  Coalescer,
  type IdOutcome,
  type Lookup,
  uniqueIds,
} from "../../src/gw2/batcher.ts";
import { Gw2RateLimitedError, Gw2UpstreamError } from "../../src/gw2/errors.ts";
import { ManualClock, settleOnClock } from "../support/clock.ts";
import { seeded } from "../support/random.ts";

type Row = { id: number };

/** Yields to the event loop until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 1000) throw new Error("until: the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/**
 * A source whose cache answers `cached` ids (and offers `stale` ids as fallbacks) and whose
 * upstream finds every id except `missing`, failing with `failWith` when set; `hold()` keeps
 * upstream answers back until `open()`, `holdBudget()` keeps admissions back until
 * `grant()` (or fails them with `refuse(error)`).
 */
function scriptedSource(
  options: { cached?: number[]; stale?: number[]; missing?: number[]; failWith?: Error } = {},
) {
  const lookups: number[][] = [];
  const batches: number[][] = [];
  const deadlines: Deadline[] = [];
  let admissions = 0;
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  let budget: PromiseWithResolvers<void> | undefined;
  const source: BatchSource<Row> = {
    admit() {
      admissions++;
      return budget?.promise ?? Promise.resolve();
    },
    lookup(ids) {
      lookups.push([...ids]);
      const known = new Map<number, Lookup<Row>>();
      for (const id of ids) {
        if (options.cached?.includes(id)) {
          known.set(id, { answer: { kind: "found", value: { id } } });
        }
        if (options.stale?.includes(id)) {
          known.set(id, { fallback: () => ({ kind: "found", value: { id }, staleAgeMs: 5000 }) });
        }
      }
      return Promise.resolve(known);
    },
    async askUpstream(ids, deadline) {
      batches.push([...ids]);
      deadlines.push(deadline);
      await gate;
      const failure = options.failWith;
      if (failure !== undefined && !(failure instanceof Gw2UpstreamError)) throw failure;
      const outcomes = new Map<number, IdOutcome<Row>>();
      for (const id of ids) {
        outcomes.set(
          id,
          failure !== undefined
            ? { kind: "failed", error: failure }
            : options.missing?.includes(id)
            ? { kind: "missing" }
            : { kind: "found", value: { id } },
        );
      }
      return outcomes;
    },
  };
  return {
    source,
    lookups,
    batches,
    deadlines,
    get admissions(): number {
      return admissions;
    },
    hold(): void {
      gate = new Promise((ok) => (release = ok));
    },
    open(): void {
      release();
    },
    holdBudget(): void {
      budget = Promise.withResolvers();
    },
    grant(): void {
      budget?.resolve();
      budget = undefined;
    },
    refuse(error: Error): void {
      budget?.reject(error);
      budget = undefined;
    },
  };
}

Deno.test("uniqueIds() drops duplicates and keeps first-seen order", () => {
  assert.deepEqual(uniqueIds([3, 1, 3, 2, 1]), [3, 1, 2]);
});

Deno.test("Coalescer.load() answers found ids in request order and reports missing ones", async () => {
  const script = scriptedSource({ missing: [5] });
  const coalescer = new Coalescer<Row>({ clock: new ManualClock(), windowMs: 0, ...script });
  const read = await coalescer.load([3, 5, 1, 3]);
  assert.deepEqual(read, { found: [{ id: 3 }, { id: 1 }], missingIds: [5] });
  assert.deepEqual(script.batches, [[3, 5, 1]]);
});

Deno.test("Coalescer.load() answers cache hits without waiting for the window or the clock", async () => {
  const script = scriptedSource({ cached: [1, 2, 3] });
  // Every sleep on this clock waits for advance(), which never comes, so a wait would hang.
  const clock = new ManualClock();
  const coalescer = new Coalescer<Row>({ clock, windowMs: 5, ...script });
  const read = await coalescer.load([1, 2, 3]);
  assert.deepEqual(read.found.map((row) => row.id), [1, 2, 3]);
  assert.deepEqual(clock.sleeps, [], "no sleep at all");
  assert.deepEqual(script.batches, [], "nothing asked upstream");
});

Deno.test("Coalescer.load() lets only the ids needing upstream wait for company", async () => {
  const script = scriptedSource({ cached: [1] });
  const clock = new ManualClock();
  const coalescer = new Coalescer<Row>({ clock, windowMs: 5, ...script });
  const mixed = coalescer.load([1, 2]);
  let hitSettled = false;
  const hit = coalescer.load([1]).then((read) => (hitSettled = true, read));
  await until(() => hitSettled);
  assert.deepEqual((await hit).found, [{ id: 1 }]);
  assert.equal(script.batches.length, 0, "the miss still waits for its window");
  clock.advance(5);
  assert.deepEqual((await mixed).found.map((row) => row.id), [1, 2]);
  assert.deepEqual(script.batches, [[2]]);
});

Deno.test("Coalescer.load() batches callers of the same tick into one cache pass and one batch", async () => {
  const script = scriptedSource();
  const coalescer = new Coalescer<Row>({ clock: new ManualClock(), windowMs: 0, ...script });
  const reads = await Promise.all([
    coalescer.load([1, 2]),
    coalescer.load([2, 3]),
    coalescer.load([4]),
  ]);
  assert.deepEqual(script.lookups, [[1, 2, 3, 4]]);
  assert.deepEqual(script.batches, [[1, 2, 3, 4]]);
  assert.deepEqual(reads.map((read) => read.found.map((row) => row.id)), [[1, 2], [2, 3], [4]]);
});

Deno.test("Coalescer.load() waits the window on the clock and gathers later callers", async () => {
  const script = scriptedSource();
  const clock = new ManualClock();
  const coalescer = new Coalescer<Row>({ clock, windowMs: 5, ...script });
  const first = coalescer.load([1]);
  await until(() => clock.pendingSleeps === 1);
  const second = coalescer.load([2]);
  await until(() => script.lookups.length === 2);
  assert.equal(script.batches.length, 0, "nothing asked before the window closes");
  clock.advance(5);
  await Promise.all([first, second]);
  assert.deepEqual(script.batches, [[1, 2]]);
});

Deno.test("Coalescer.load() joins ids already being resolved instead of asking again", async () => {
  const script = scriptedSource();
  const joins: number[] = [];
  const coalescer = new Coalescer<Row>({
    clock: new ManualClock(),
    windowMs: 0,
    ...script,
    onJoin: (count) => joins.push(count),
  });
  script.hold();
  const first = coalescer.load([1, 2, 3]);
  await until(() => script.batches.length === 1);
  const second = coalescer.load([2, 3, 4]);
  await until(() => script.batches.length === 2);
  script.open();
  const [one, two] = await Promise.all([first, second]);
  assert.deepEqual(script.batches, [[1, 2, 3], [4]], "only the new id was asked for");
  assert.deepEqual(joins, [2]);
  assert.deepEqual(two.found.map((row) => row.id), [2, 3, 4]);
  assert.equal(one.found.length, 3);
  await coalescer.load([1]);
  assert.deepEqual(script.batches.at(-1), [1], "a settled id is asked again (the cache answers)");
});

Deno.test("Coalescer.load() serves the fallback of a failed id and reports the oldest stale age", async () => {
  const error = new Gw2UpstreamError("server_error", 500);
  const script = scriptedSource({ stale: [1], failWith: error });
  const coalescer = new Coalescer<Row>({ clock: new ManualClock(), windowMs: 0, ...script });
  assert.deepEqual(await coalescer.load([1]), {
    found: [{ id: 1 }],
    missingIds: [],
    staleAgeMs: 5000,
  });
  await assert.rejects(coalescer.load([1, 9]), (thrown) => thrown === error);
});

Deno.test("Coalescer.load() passes a resolver bug to every caller of the batch", async () => {
  const script = scriptedSource({ failWith: new RangeError("bug") });
  const coalescer = new Coalescer<Row>({ clock: new ManualClock(), windowMs: 0, ...script });
  const results = await Promise.allSettled([coalescer.load([1]), coalescer.load([2])]);
  assert.deepEqual(results.map((result) => result.status), ["rejected", "rejected"]);
});

Deno.test("Coalescer.load() with deadlines: one caller giving up does not fail the others", async (t) => {
  await t.step("the early caller times out, the later one gets its answer", async () => {
    const clock = new ManualClock();
    const script = scriptedSource();
    const coalescer = new Coalescer<Row>({ clock, windowMs: 0, ...script });
    script.hold();
    using short = startDeadline(clock, 1_000);
    using long = startDeadline(clock, 10_000);
    const early = coalescer.load([1, 2], short);
    const late = coalescer.load([2], long);
    await until(() => script.batches.length === 1);
    const shared = script.deadlines[0];
    assert.ok(shared);
    assert.equal(shared.remainingMs(), 10_000, "the batch lasts as long as the latest caller");
    clock.advance(1_000);
    await assert.rejects(early, { kind: "upstream", reason: "timeout" });
    assert.equal(shared.signal.aborted, false, "the batch goes on for the later caller");
    assert.equal(shared.remainingMs(), 9_000);
    script.open();
    assert.deepEqual(await late, { found: [{ id: 2 }], missingIds: [] });
  });
  await t.step("a caller that gives up is answered from the expired entry", async () => {
    const clock = new ManualClock();
    const script = scriptedSource({ stale: [1] });
    const coalescer = new Coalescer<Row>({ clock, windowMs: 0, ...script });
    script.hold();
    using deadline = startDeadline(clock, 1_000);
    const read = coalescer.load([1], deadline);
    await until(() => script.batches.length === 1);
    clock.advance(1_000);
    assert.deepEqual(await read, { found: [{ id: 1 }], missingIds: [], staleAgeMs: 5000 });
    script.open();
  });
  await t.step(
    "the batch is abandoned when its last caller leaves, and not joined after",
    async () => {
      const clock = new ManualClock();
      const script = scriptedSource();
      const coalescer = new Coalescer<Row>({ clock, windowMs: 0, ...script });
      script.hold();
      using first = startDeadline(clock, 1_000);
      using second = startDeadline(clock, 2_000);
      const one = coalescer.load([1], first);
      const two = coalescer.load([1], second);
      await until(() => script.batches.length === 1);
      const shared = script.deadlines[0];
      clock.advance(1_000);
      await assert.rejects(one, { reason: "timeout" });
      assert.equal(shared?.signal.aborted, false);
      clock.advance(1_000);
      await assert.rejects(two, { reason: "timeout" });
      assert.equal(shared?.signal.aborted, true, "nobody waits: the work stops");
      const again = coalescer.load([1]);
      await until(() => script.batches.length === 2);
      script.open();
      assert.deepEqual((await again).found, [{ id: 1 }], "a new caller starts a new batch");
    },
  );
  await t.step("an unbounded caller keeps the batch unbounded", async () => {
    const clock = new ManualClock();
    const script = scriptedSource();
    const coalescer = new Coalescer<Row>({ clock, windowMs: 0, ...script });
    script.hold();
    using deadline = startDeadline(clock, 1_000);
    const bounded = coalescer.load([1], deadline);
    const unbounded = coalescer.load([1]);
    await until(() => script.batches.length === 1);
    assert.equal(script.deadlines[0]?.remainingMs(), Infinity);
    clock.advance(1_000);
    await assert.rejects(bounded, { reason: "timeout" });
    script.open();
    assert.deepEqual((await unbounded).found, [{ id: 1 }]);
  });
});

Deno.test("Coalescer.load() keeps the window open while company keeps coming, up to its cap", async () => {
  const script = scriptedSource();
  const clock = new ManualClock();
  const coalescer = new Coalescer<Row>({ clock, windowMs: 2, maxWindowMs: 7, ...script });
  const reads = [coalescer.load([1])];
  await until(() => clock.pendingSleeps === 1);
  // Each caller 1.5 ms after the last: inside the window, so it stays open...
  for (const id of [2, 3, 4, 5]) {
    clock.advance(1.5);
    reads.push(coalescer.load([id]));
    await until(() => script.lookups.length === id);
  }
  assert.equal(script.batches.length, 0, "the window is extended by each caller");
  // ...but not past the cap: 7 ms after the first id, though the last came at 6.
  clock.advance(1);
  await until(() => script.batches.length === 1);
  assert.deepEqual(script.batches, [[1, 2, 3, 4, 5]]);
  await Promise.all(reads);
  // Alone, a caller waits the window only.
  const alone = coalescer.load([9]);
  await until(() => clock.pendingSleeps === 1);
  clock.advance(2);
  await alone;
  assert.deepEqual(script.batches.at(-1), [9]);
});

Deno.test("Coalescer.load() counts a caller waiting for ids of the gathering batch as company", async () => {
  const script = scriptedSource();
  const clock = new ManualClock();
  const coalescer = new Coalescer<Row>({ clock, windowMs: 2, maxWindowMs: 10, ...script });
  const first = coalescer.load([1]);
  await until(() => clock.pendingSleeps === 1);
  clock.advance(1.5);
  const joiner = coalescer.load([1]);
  clock.advance(1.5);
  const late = coalescer.load([2]);
  await until(() => script.lookups.length === 2);
  assert.equal(script.batches.length, 0, "the joiner at 1.5 ms kept the window open");
  clock.advance(2);
  await Promise.all([first, joiner, late]);
  assert.deepEqual(script.batches, [[1, 2]]);
});

Deno.test("Coalescer.load() keeps gathering while the batch waits for its budget", async () => {
  const script = scriptedSource();
  const clock = new ManualClock();
  const coalescer = new Coalescer<Row>({ clock, windowMs: 2, ...script });
  script.holdBudget();
  const first = coalescer.load([1]);
  await until(() => clock.pendingSleeps === 1);
  clock.advance(2);
  await until(() => script.admissions === 1);
  // The bucket is empty: whoever arrives while the batch waits for its token joins it.
  clock.advance(500);
  const second = coalescer.load([2, 3]);
  await until(() => script.lookups.length === 2);
  script.grant();
  await Promise.all([first, second]);
  assert.deepEqual(script.batches, [[1, 2, 3]], "one request instead of two");
  assert.equal(script.admissions, 1);
});

Deno.test("Coalescer.load() fails a batch refused its budget, stale where it may be", async () => {
  const script = scriptedSource({ stale: [1] });
  const coalescer = new Coalescer<Row>({ clock: new ManualClock(), windowMs: 0, ...script });
  script.holdBudget();
  const withFallback = coalescer.load([1]);
  const without = coalescer.load([2]);
  await until(() => script.admissions === 1);
  const refusal = new Gw2RateLimitedError(3_000);
  script.refuse(refusal);
  assert.deepEqual(await withFallback, { found: [{ id: 1 }], missingIds: [], staleAgeMs: 5000 });
  await assert.rejects(without, (thrown) => thrown === refusal);
  assert.deepEqual(script.batches, [], "nothing asked without a token");
});

Deno.test("Coalescer.load() gathers a burst of callers a millisecond apart into one batch", async () => {
  // 50 callers of 100 ids drawn from 300, one per millisecond of clock: the arrival pace of the
  // bench's burst on a 2-core machine. A window that closed 2 ms after the first miss made a
  // batch of every caller or two bringing new ids (10 batches here); company keeping the window
  // open makes one, i.e. two upstream requests of at most 200.
  const script = scriptedSource();
  const clock = new ManualClock();
  const coalescer = new Coalescer<Row>({ clock, windowMs: 2, maxWindowMs: 25, ...script });
  const random = seeded("batcher", "burst");
  const callers = Array.from({ length: 50 }, () => {
    const pool = Array.from({ length: 300 }, (_, index) => index + 1);
    for (let index = pool.length - 1; index > 0; index--) {
      const other = random.int(0, index);
      [pool[index], pool[other]] = [pool[other]!, pool[index]!];
    }
    return pool.slice(0, 100);
  });
  const reads: Promise<unknown>[] = [];
  script.hold(); // upstream answers after the burst, as at 100 ms latency
  for (const ids of callers) {
    reads.push(coalescer.load(ids));
    await new Promise((resolve) => setTimeout(resolve, 0)); // its cache pass
    clock.advance(1);
  }
  script.open();
  await settleOnClock(Promise.all(reads), clock);
  assert.equal(new Set(callers.flat()).size, 300);
  assert.deepEqual(script.batches.map((batch) => batch.length), [300]);
});
