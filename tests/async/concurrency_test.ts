import assert from "node:assert/strict";
import { chunk, mapWithConcurrency, settleAll } from "../../src/async/concurrency.ts";

Deno.test("mapWithConcurrency() keeps input order and never exceeds the limit", async () => {
  let running = 0;
  let peak = 0;
  const results = await mapWithConcurrency([5, 1, 4, 2, 3, 0], 2, async (value, index) => {
    running++;
    peak = Math.max(peak, running);
    // Yield a varying number of turns so calls finish out of order.
    for (let turn = 0; turn < value; turn++) await Promise.resolve();
    running--;
    return `${index}:${value}`;
  });
  assert.deepEqual(results, ["0:5", "1:1", "2:4", "3:2", "4:3", "5:0"]);
  assert.equal(peak, 2);
});

Deno.test("mapWithConcurrency() stops starting work after a failure and rethrows it", async () => {
  const started: number[] = [];
  let settled = 0;
  await assert.rejects(
    mapWithConcurrency([0, 1, 2, 3, 4, 5], 2, async (value) => {
      started.push(value);
      await Promise.resolve();
      settled++;
      if (value === 1) throw new Error("boom");
      return value;
    }),
    { message: "boom" },
  );
  assert.deepEqual(started, [0, 1, 2]);
  assert.equal(settled, started.length, "every started call settled before the rejection");
});

Deno.test("mapWithConcurrency() handles an empty list and refuses a bad limit", async () => {
  assert.deepEqual(await mapWithConcurrency([], 3, () => Promise.resolve(1)), []);
  await assert.rejects(mapWithConcurrency([1], 0, () => Promise.resolve(1)), RangeError);
});

Deno.test("chunk() splits into groups of at most the size", async (t) => {
  await t.step("450 ids at 200 make 200, 200, 50", () => {
    const ids = Array.from({ length: 450 }, (_, index) => index + 1);
    assert.deepEqual(chunk(ids, 200).map((group) => group.length), [200, 200, 50]);
    assert.deepEqual(chunk(ids, 200).flat(), ids);
  });
  await t.step("exact multiples and empty input", () => {
    assert.deepEqual(chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]);
    assert.deepEqual(chunk([], 10), []);
  });
  await t.step("a non-positive size is refused", () => {
    assert.throws(() => chunk([1], 0), RangeError);
  });
});

Deno.test("settleAll() gives the values in order, typed per position", async () => {
  const [number, text] = await settleAll([Promise.resolve(1), Promise.resolve("two")]);
  assert.equal(number + 1, 2);
  assert.equal(text.toUpperCase(), "TWO");
  assert.deepEqual(await settleAll([]), []);
});

Deno.test("settleAll() rethrows the first failure in list order, only once every promise settled", async () => {
  let slowDone = false;
  const slow = new Promise<number>((resolve) =>
    setTimeout(() => {
      slowDone = true;
      resolve(3);
    }, 5)
  );
  await assert.rejects(
    settleAll([slow, Promise.reject(new Error("first")), Promise.reject(new Error("second"))]),
    /first/,
  );
  assert.ok(slowDone, "the slow promise settled before the failure was thrown");
});
