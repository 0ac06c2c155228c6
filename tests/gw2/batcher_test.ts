import assert from "node:assert/strict";
import { Coalescer, type IdOutcome, uniqueIds } from "../../src/gw2/batcher.ts";
import { Gw2UpstreamError } from "../../src/gw2/errors.ts";
import { ManualClock } from "../support/clock.ts";

type Row = { id: number };

function recordingResolver(options: { missing?: number[] } = {}) {
  const batches: number[][] = [];
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const resolve = async (ids: readonly number[]) => {
    batches.push([...ids]);
    await gate;
    const outcomes = new Map<number, IdOutcome<Row>>();
    for (const id of ids) {
      outcomes.set(
        id,
        options.missing?.includes(id) ? { kind: "missing" } : { kind: "found", value: { id } },
      );
    }
    return outcomes;
  };
  return {
    batches,
    resolve,
    /** Holds resolution until `open()` is called. */
    hold(): void {
      gate = new Promise((ok) => (release = ok));
    },
    open(): void {
      release();
    },
  };
}

Deno.test("uniqueIds() drops duplicates and keeps first-seen order", () => {
  assert.deepEqual(uniqueIds([3, 1, 3, 2, 1]), [3, 1, 2]);
});

Deno.test("Coalescer.load() answers found ids in request order and reports missing ones", async () => {
  const resolver = recordingResolver({ missing: [5] });
  const coalescer = new Coalescer<Row>({
    clock: new ManualClock(),
    windowMs: 0,
    resolve: resolver.resolve,
  });
  const read = await coalescer.load([3, 5, 1, 3]);
  assert.deepEqual(read, { found: [{ id: 3 }, { id: 1 }], missingIds: [5] });
  assert.deepEqual(resolver.batches, [[3, 5, 1]]);
});

Deno.test("Coalescer.load() batches callers of the same tick into one resolution", async () => {
  const resolver = recordingResolver();
  const coalescer = new Coalescer<Row>({
    clock: new ManualClock(),
    windowMs: 0,
    resolve: resolver.resolve,
  });
  const reads = await Promise.all([
    coalescer.load([1, 2]),
    coalescer.load([2, 3]),
    coalescer.load([4]),
  ]);
  assert.deepEqual(resolver.batches, [[1, 2, 3, 4]]);
  assert.deepEqual(reads.map((read) => read.found.map((row) => row.id)), [[1, 2], [2, 3], [4]]);
});

Deno.test("Coalescer.load() waits the window on the clock and gathers later callers", async () => {
  const resolver = recordingResolver();
  const clock = new ManualClock();
  const coalescer = new Coalescer<Row>({ clock, windowMs: 5, resolve: resolver.resolve });
  const first = coalescer.load([1]);
  await Promise.resolve();
  const second = coalescer.load([2]);
  assert.equal(resolver.batches.length, 0, "nothing asked before the window closes");
  clock.advance(5);
  await Promise.all([first, second]);
  assert.deepEqual(resolver.batches, [[1, 2]]);
});

Deno.test("Coalescer.load() joins ids already being resolved instead of asking again", async () => {
  const resolver = recordingResolver();
  const joins: number[] = [];
  const coalescer = new Coalescer<Row>({
    clock: new ManualClock(),
    windowMs: 0,
    resolve: resolver.resolve,
    onJoin: (count) => joins.push(count),
  });
  resolver.hold();
  const first = coalescer.load([1, 2, 3]);
  await new Promise((ok) => setTimeout(ok, 0));
  assert.deepEqual(resolver.batches, [[1, 2, 3]]);
  const second = coalescer.load([2, 3, 4]);
  await new Promise((ok) => setTimeout(ok, 0));
  resolver.open();
  const [one, two] = await Promise.all([first, second]);
  assert.deepEqual(resolver.batches, [[1, 2, 3], [4]], "only the new id was asked for");
  assert.deepEqual(joins, [2]);
  assert.deepEqual(two.found.map((row) => row.id), [2, 3, 4]);
  assert.equal(one.found.length, 3);
  await coalescer.load([1]);
  assert.deepEqual(resolver.batches.at(-1), [1], "a settled id is asked again (the cache answers)");
});

Deno.test("Coalescer.load() throws a failed id's error and reports the oldest stale age", async () => {
  const error = new Gw2UpstreamError("timeout");
  const coalescer = new Coalescer<Row>({
    clock: new ManualClock(),
    windowMs: 0,
    resolve: (ids) =>
      Promise.resolve(
        new Map<number, IdOutcome<Row>>(ids.map((id) => [
          id,
          id === 9
            ? { kind: "failed", error }
            : { kind: "found", value: { id }, staleAgeMs: id * 1000 },
        ])),
      ),
  });
  await assert.rejects(coalescer.load([1, 9]), (thrown) => thrown === error);
  assert.deepEqual(await coalescer.load([1, 2]), {
    found: [{ id: 1 }, { id: 2 }],
    missingIds: [],
    staleAgeMs: 2000,
  });
});

Deno.test("Coalescer.load() passes a resolver bug to every caller of the batch", async () => {
  const coalescer = new Coalescer<Row>({
    clock: new ManualClock(),
    windowMs: 0,
    resolve: () => Promise.reject(new RangeError("bug")),
  });
  const results = await Promise.allSettled([coalescer.load([1]), coalescer.load([2])]);
  assert.deepEqual(results.map((result) => result.status), ["rejected", "rejected"]);
});
