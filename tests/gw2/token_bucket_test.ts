import assert from "node:assert/strict";
import { conflictPauseMs, isLockedError } from "../../src/kv/conflict.ts";
import { msUntilToken, refill, TokenBucket } from "../../src/gw2/token_bucket.ts";
import { ManualClock } from "../support/clock.ts";
import { openMemoryKv, tempKvFile } from "../support/kv.ts";
import { seeded } from "../support/random.ts";
import { Output } from "../support/served.ts";

const KEY = ["test", "bucket"];

/** Yields to the event loop until something sleeps on `clock`. */
async function untilWaiting(clock: ManualClock): Promise<void> {
  for (let turn = 0; clock.pendingSleeps === 0; turn++) {
    assert.ok(turn < 1000, "nothing ever waited on the clock");
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

Deno.test("refill() adds perSec tokens per second up to the burst", () => {
  assert.equal(refill({ tokens: 0, ts: 0 }, 1000, 10, 5), 5);
  assert.equal(refill({ tokens: 2.5, ts: 0 }, 100, 10, 5), 3);
  assert.equal(refill({ tokens: 9, ts: 0 }, 60_000, 10, 5), 10);
  assert.equal(refill({ tokens: 4, ts: 5000 }, 1000, 10, 5), 4, "a clock behind ts adds nothing");
});

Deno.test("msUntilToken() is the time to reach one token, at least 1 ms", () => {
  assert.equal(msUntilToken(0, 5), 200);
  assert.equal(msUntilToken(0.5, 5), 100);
  assert.equal(msUntilToken(0.9999, 5), 1);
  assert.equal(msUntilToken(0, 0.5), 2000);
});

Deno.test("conflictPauseMs() grows to 16 ms and stays there", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 9].map((attempt) => conflictPauseMs(attempt, () => 0.5)), [
    0.5,
    1,
    2,
    4,
    8,
    8,
  ]);
  assert.equal(conflictPauseMs(0, () => 0), 0);
});

Deno.test("isLockedError() recognises SQLite's lock error only", () => {
  assert.equal(isLockedError(new TypeError("database is locked")), true);
  assert.equal(isLockedError(new Error("Value too large")), false);
  assert.equal(isLockedError("database is locked"), false);
});

Deno.test("TokenBucket.tryTake() admits the burst, then refuses with the time to wait", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const bucket = new TokenBucket({ kv, key: KEY, burst: 3, perSec: 5, clock });
  const results = [];
  for (let index = 0; index < 4; index++) results.push(await bucket.tryTake());
  assert.deepEqual(results, [
    { admitted: true },
    { admitted: true },
    { admitted: true },
    { admitted: false, retryAfterMs: 200 },
  ]);
  clock.advance(200);
  assert.deepEqual(await bucket.tryTake(), { admitted: true });
  assert.equal(await bucket.level(), 0);
  clock.advance(60_000);
  assert.equal(await bucket.level(), 3, "refills to the burst, no further");
});

Deno.test("TokenBucket.take() waits on the clock for a refill, up to the bound", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "all" });
  const bucket = new TokenBucket({ kv, key: KEY, burst: 1, perSec: 2, clock, random: () => 0 });
  let waits = 0;
  assert.deepEqual(await bucket.take(10_000, () => waits++), { admitted: true });
  const start = clock.now();
  assert.deepEqual(await bucket.take(10_000, () => waits++), { admitted: true });
  assert.equal(clock.now() - start, 500, "waited exactly one refill");
  assert.equal(waits, 1);
  assert.deepEqual(await bucket.take(100), { admitted: false, retryAfterMs: 500 });
  assert.equal(clock.now() - start, 500, "refused at once when the wait would pass the bound");
});

Deno.test("TokenBucket.take() serialises concurrent takes of one instance without conflicts", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const bucket = new TokenBucket({ kv, key: KEY, burst: 50, perSec: 1, clock });
  const results = await Promise.all(Array.from({ length: 60 }, () => bucket.tryTake()));
  assert.equal(results.filter((result) => result.admitted).length, 50);
  assert.equal(clock.sleeps.length, 0, "no conflict pause: takes of one instance never race");
});

Deno.test("TokenBucket.drain() empties the bucket for every holder", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const one = new TokenBucket({ kv, key: KEY, burst: 10, perSec: 5, clock });
  const two = new TokenBucket({ kv, key: KEY, burst: 10, perSec: 5, clock });
  await one.drain();
  assert.deepEqual(await two.tryTake(), { admitted: false, retryAfterMs: 200 });
});

Deno.test("TokenBucket treats a thrown 'database is locked' as a conflict and retries", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "all" });
  let locks = 2;
  // A KV whose check-and-set commits throw like SQLite does when another process holds the lock.
  const lockingKv = new Proxy(kv, {
    get(target, property) {
      if (property === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () =>
            locks-- > 0 ? Promise.reject(new TypeError("database is locked")) : commit();
          return op;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const bucket = new TokenBucket({ kv: lockingKv, key: KEY, burst: 5, perSec: 1, clock });
  assert.deepEqual(await bucket.tryTake(), { admitted: true });
  assert.equal(clock.sleeps.length, 2, "one jittered pause per lock error");
  assert.equal(await bucket.level(), 4);
});

Deno.test("TokenBucket on two KV handles of one file never admits more than the bucket allows", async () => {
  await using file = await tempKvFile();
  const kvOne = await Deno.openKv(file.path);
  const kvTwo = await Deno.openKv(file.path);
  try {
    const clock = new ManualClock({ advance: "delays" });
    const burst = 20;
    const perSec = 10;
    const buckets = [kvOne, kvTwo].map((kv, index) =>
      new TokenBucket({ kv, key: KEY, burst, perSec, clock, random: seeded(index + 1).next })
    );
    const start = clock.now();
    // Eight concurrent loops across the two handles, each taking as fast as it can.
    let admitted = 0;
    await Promise.all(Array.from({ length: 8 }, async (_, loop) => {
      const bucket = buckets[loop % 2] as TokenBucket; // loop % 2 indexes the two-element array
      for (let index = 0; index < 15; index++) {
        if ((await bucket.tryTake()).admitted) admitted++;
      }
    }));
    const elapsedMs = clock.now() - start;
    const allowed = burst + Math.floor((elapsedMs * perSec) / 1000);
    assert.ok(admitted <= allowed, `admitted ${admitted} > allowed ${allowed}`);
    assert.ok(admitted >= burst, `admitted ${admitted} < burst ${burst}`);
  } finally {
    kvOne.close();
    kvTwo.close();
  }
});

Deno.test("TokenBucket shared by two processes on one file never over-admits", async () => {
  await using file = await tempKvFile();
  const burst = 10;
  const perSec = 20;
  const durationMs = 1000;
  const root = new URL("../../", import.meta.url);
  const worker = new URL("./bucket_worker.ts", import.meta.url).pathname;
  // Created once so both processes open an existing database (no race on the schema).
  (await Deno.openKv(file.path)).close();
  const workers = [0, 1].map(() =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--unstable-kv",
        `--allow-read=${file.path}-wal,${file.path}-shm,${file.path},${worker}`,
        `--allow-write=${file.path}-wal,${file.path}-shm,${file.path}`,
        worker,
        file.path,
        String(burst),
        String(perSec),
        String(durationMs),
      ],
      cwd: root.pathname,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn()
  );
  const outputs = workers.map((child) => {
    const stdout = new Output(child.stdout);
    const stderr = new Output(child.stderr);
    return { child, stdout, stderr };
  });
  // A start barrier, not a spawn window: the common start is chosen once both are ready, however
  // long a loaded machine took to start them.
  await Promise.all(outputs.map(({ stdout }) => stdout.waitFor(/^ready$/m)));
  const startAt = Date.now() + 100;
  const encoder = new TextEncoder();
  for (const { child } of outputs) {
    const writer = child.stdin.getWriter();
    await writer.write(encoder.encode(`${startAt}\n`));
    await writer.close();
  }
  const admittedAt: number[] = [];
  let calls = 0;
  for (const { child, stdout, stderr } of outputs) {
    const status = await child.status;
    await Promise.all([stdout.done, stderr.done]);
    assert.equal(status.code, 0, stderr.text);
    const report: { admittedAt: number[]; calls: number } = JSON.parse(
      stdout.text.split("\n").filter((line) => line.startsWith("{"))[0] ?? "{}",
    );
    assert.ok(report.calls > 0, "each worker took part");
    admittedAt.push(...report.admittedAt);
    calls += report.calls;
  }
  const last = Math.max(...admittedAt);
  // Admission times are taken after each commit, so they are never earlier than the decision.
  const allowed = burst + Math.floor(((last - startAt) * perSec) / 1000);
  assert.ok(admittedAt.length <= allowed, `admitted ${admittedAt.length} > allowed ${allowed}`);
  assert.ok(admittedAt.length >= burst, `admitted ${admittedAt.length} of ${calls} calls`);
});

Deno.test("TokenBucket.take() stops waiting for a refill when its signal aborts", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const bucket = new TokenBucket({ kv, key: KEY, burst: 1, perSec: 1, clock, random: () => 0 });
  await bucket.tryTake();
  const deadline = new AbortController();
  const take = bucket.take(10_000, undefined, deadline.signal);
  await untilWaiting(clock);
  clock.advance(400);
  deadline.abort();
  assert.deepEqual(await take, { admitted: false, retryAfterMs: 600 });
  assert.equal(clock.pendingSleeps, 0);
});

Deno.test("TokenBucket rejects a take on a stalled KV within its bound, and serves the next", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  let stalled = true;
  const flaky = new Proxy(kv, {
    get(target, property) {
      if (property === "get" && stalled) return () => new Promise(() => {});
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const bucket = new TokenBucket({
    kv: flaky,
    key: KEY,
    burst: 5,
    perSec: 1,
    clock,
    timeout: { ms: 2_000, clock },
  });
  const take = bucket.tryTake();
  await untilWaiting(clock);
  clock.advance(2_000);
  await assert.rejects(take, { name: "KvTimeoutError" });
  stalled = false;
  assert.deepEqual(await bucket.tryTake(), { admitted: true }, "the stalled take holds no queue");
});
