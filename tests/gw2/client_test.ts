import assert from "node:assert/strict";
import { bucketCapacity, createGw2Client, type Gw2ClientOptions } from "../../src/gw2/client.ts";
import {
  Gw2KeyRejectedError,
  Gw2NotFoundError,
  Gw2RateLimitedError,
  Gw2ScopeMissingError,
  Gw2UpstreamError,
} from "../../src/gw2/errors.ts";
import { systemClock } from "../../src/async/clock.ts";
import {
  createFakeGw2,
  type FakeGw2Options,
  startFakeGw2,
  TEST_KEYS,
  UNKNOWN_KEY,
} from "../fake_gw2/mod.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv, tempKvFile } from "../support/kv.ts";
import {
  afterReactions,
  ManualClock,
  settleOnClock,
  track,
  until as untilSettled,
  within,
} from "../support/clock.ts";
import { KV_TIMEOUT_MS } from "../../src/kv/timeout.ts";
import { captureLogs, logRecords } from "../support/log.ts";
import { seeded } from "../support/random.ts";
import { startDeadline, withinDeadline } from "../../src/async/deadline.ts";
import { Gw2Keys } from "../../src/gw2/cache/keys.ts";
import { RecordCache } from "../../src/gw2/cache/record_cache.ts";
import { silentLogger } from "../../src/log.ts";
import { overspent } from "./_support.ts";

const HOUR = 3_600_000;
const UNKNOWN_IDS = [999_999_001, 999_999_002, 999_999_003];

interface Setup extends Disposable {
  readonly clock: ManualClock;
  readonly kv: Deno.Kv;
  readonly fake: ReturnType<typeof createFakeGw2>;
  readonly client: ReturnType<typeof createGw2Client>;
  readonly lines: string[];
  /** Requests the fake served to `path`. */
  requests(
    path?: string,
  ): readonly { path: string; query: string; idCount: number; status: number }[];
}

async function setup(
  options: {
    kv?: Deno.Kv;
    clock?: ManualClock;
    fake?: FakeGw2Options;
    client?: Partial<Gw2ClientOptions>;
  } = {},
): Promise<Setup> {
  const clock = options.clock ?? new ManualClock({ advance: "delays" });
  const kv = options.kv ?? await openMemoryKv();
  const fake = createFakeGw2({ now: () => clock.now(), ...options.fake });
  const { log, lines } = captureLogs(clock);
  const client = clientOverFake(kv, clock, fake, { log, ...options.client });
  return {
    clock,
    kv,
    fake,
    client,
    lines,
    requests: (path) =>
      fake.control.requests.filter((request) => path === undefined || request.path === path),
    [Symbol.dispose]: () => {
      if (options.kv === undefined) kv.close();
    },
  };
}

/** Yields to the event loop until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 1000) throw new Error("until: the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

function knownItemIds(fake: ReturnType<typeof createFakeGw2>, count: number): number[] {
  const ids = [...fake.world.items.keys()].slice(0, count);
  assert.equal(ids.length, count, "the fake world has enough items");
  return ids;
}

function tradeableIds(fake: ReturnType<typeof createFakeGw2>, count: number): number[] {
  const ids = [...fake.world.prices.keys()].slice(0, count);
  assert.equal(ids.length, count, "the fake world has enough prices");
  return ids;
}

Deno.test("items() asks for 450 ids in 3 upstream requests of at most 200", async () => {
  using env = await setup();
  const ids = knownItemIds(env.fake, 450);
  const read = await env.client.items(ids);
  assert.deepEqual(read.found.map((item) => item.id), ids);
  assert.deepEqual(read.missingIds, []);
  const requests = env.requests("/v2/items");
  assert.deepEqual(requests.map((request) => request.idCount), [200, 200, 50]);
  assert.ok(requests.every((request) => request.status === 200));
});

Deno.test("items() serves 20 concurrent overlapping callers with one request per 200 distinct ids", async () => {
  using env = await setup();
  const pool = knownItemIds(env.fake, 400);
  const callers = Array.from(
    { length: 20 },
    (_, caller) => pool.slice(caller * 15, caller * 15 + 100),
  );
  const distinct = new Set(callers.flat());
  const reads = await Promise.all(callers.map((ids) => env.client.items(ids)));
  reads.forEach((read, caller) => {
    assert.deepEqual(read.found.map((item) => item.id), callers[caller]);
  });
  const requests = env.requests("/v2/items");
  assert.equal(requests.length, Math.ceil(distinct.size / 200));
  assert.equal(requests.reduce((total, request) => total + request.idCount, 0), distinct.size);
  // Every repeat of an id already queued by an earlier caller joined it.
  const requested = callers.reduce((total, ids) => total + ids.length, 0);
  assert.equal(env.client.stats().coalescedJoins, requested - distinct.size);
});

Deno.test("items() joins a request already in flight", async () => {
  const clock = new ManualClock({ advance: "delays" });
  using env = await setup({ clock, fake: { sleep: (ms, signal) => clock.timer(ms, signal) } });
  const ids = knownItemIds(env.fake, 10);
  env.fake.control.setLatency(20, "/v2/items");
  const first = env.client.items(ids.slice(0, 6));
  // The first request has reached the fake and waits out its latency on the clock.
  await env.fake.control.waitForRequests(1);
  const second = env.client.items(ids.slice(3, 10));
  await until(() => env.requests("/v2/items").length === 2);
  clock.advance(20);
  const [one, two] = await Promise.all([first, second]);
  assert.equal(one.found.length, 6);
  assert.equal(two.found.length, 7);
  assert.deepEqual(env.requests("/v2/items").map((request) => request.idCount), [6, 4]);
  assert.equal(env.client.stats().coalescedJoins, 3);
});

for (const [where, memoryRecords] of [["process memory", undefined], ["KV", 0]] as const) {
  Deno.test(`items() answers a cache hit from ${where} without any wait: no window, no sleep`, async () => {
    // Every sleep on this clock waits for advance(): a wait on the warm path would hang the read.
    const clock = new ManualClock();
    using env = await setup({
      clock,
      ...(memoryRecords === undefined ? {} : { client: { memoryRecords } }),
    });
    const ids = knownItemIds(env.fake, 3);
    const cold = await settleOnClock(env.client.items(ids), clock);
    assert.equal(cold.ok, true);
    const sleepsBefore = clock.sleeps.length;
    let warm: Awaited<ReturnType<typeof env.client.items>> | undefined;
    const reading = env.client.items(ids).then((read) => (warm = read));
    await until(() => warm !== undefined);
    await reading;
    assert.deepEqual(warm?.found.map((item) => item.id), ids);
    assert.equal(clock.sleeps.length, sleepsBefore, "the warm read slept on nothing");
    assert.equal(env.requests("/v2/items").length, 1);
    assert.equal(env.client.stats().memoryHits, memoryRecords === 0 ? 0 : 3);
  });
}

Deno.test("items() gathers callers for 2 ms after the last by default, and 25 ms at most", async () => {
  const clock = new ManualClock();
  using env = await setup({ clock });
  const [a, b, c] = [knownItemIds(env.fake, 3)].flatMap((ids) => ids.map((id) => [id]));
  assert.ok(a && b && c);
  const start = clock.now();
  const first = env.client.items(a);
  await until(() => clock.pendingSleeps === 1);
  clock.advance(1.5);
  const second = env.client.items(b);
  await until(() => env.client.stats().cacheMisses === 2);
  clock.advance(1.5);
  await until(() => clock.pendingSleeps === 1);
  assert.equal(clock.nextDue, start + 3.5, "open until 2 ms after the second caller");
  clock.advance(0.5);
  await Promise.all([first, second]);
  assert.deepEqual(env.requests("/v2/items").map((request) => request.idCount), [2]);
  const third = env.client.items(c);
  await until(() => clock.pendingSleeps === 1);
  clock.advance(2.1);
  await third;
  const late = env.client.items([...a, ...c]);
  assert.deepEqual(env.requests("/v2/items").map((request) => request.idCount), [2, 1]);
  assert.equal((await late).found.length, 2);
  // Company every 1.5 ms keeps a batch open, but not past 25 ms from its first id.
  const ids = knownItemIds(env.fake, 40).slice(3);
  const opened = clock.now();
  const reads = [];
  for (const [index, id] of ids.entries()) {
    reads.push(env.client.items([id]));
    await until(() => env.client.stats().cacheMisses === 4 + index);
    clock.advance(1.5);
    if (clock.now() - opened >= 25) break;
  }
  await until(() => env.requests("/v2/items").length === 3);
  assert.equal(env.requests("/v2/items")[2]?.idCount, 17, "the callers of its first 25 ms");
  await settleOnClock(Promise.all(reads), clock);
});

Deno.test("items() costs two requests for a burst of 50 callers over 300 uncached ids, a millisecond apart", async () => {
  // The bench's coalescing burst, on the clock: each caller arrives 1 ms after the last (the
  // pace a 2-core machine serves 100-id calls at) once the one before it has read the cache.
  const clock = new ManualClock();
  using env = await setup({ clock });
  const pool = knownItemIds(env.fake, 300);
  const random = seeded("client", "burst");
  const callers = Array.from({ length: 50 }, () => {
    const ids = [...pool];
    for (let index = ids.length - 1; index > 0; index--) {
      const other = random.int(0, index);
      [ids[index], ids[other]] = [ids[other]!, ids[index]!];
    }
    return ids.slice(0, 100);
  });
  const counted = () => {
    const stats = env.client.stats();
    return stats.cacheHits + stats.cacheMisses + stats.coalescedJoins;
  };
  const reads = [];
  for (const [index, ids] of callers.entries()) {
    reads.push(env.client.items(ids));
    await until(() => counted() === 100 * (index + 1));
    clock.advance(1);
  }
  const settled = await settleOnClock(Promise.all(reads), clock);
  assert.equal(settled.ok, true);
  assert.deepEqual(env.requests("/v2/items").map((request) => request.idCount), [200, 100]);
});

/** `kv` counting its `getMany` calls. */
function countingKv(kv: Deno.Kv): { kv: Deno.Kv; getMany: () => number } {
  let calls = 0;
  const counted = new Proxy(kv, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === "getMany" && typeof value === "function") {
        return (...args: Parameters<Deno.Kv["getMany"]>) => (calls++, target.getMany(...args));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: counted, getMany: () => calls };
}

Deno.test("items() answers a record this process holds fresh from memory, without reading KV", async () => {
  using memoryKv = await openMemoryKv();
  const counting = countingKv(memoryKv);
  using env = await setup({ kv: counting.kv });
  const ids = knownItemIds(env.fake, 3);
  await env.client.items(ids);
  const reads = counting.getMany();
  const warm = await env.client.items(ids);
  assert.deepEqual(warm.found.map((item) => item.id), ids);
  assert.equal(counting.getMany(), reads, "no KV read");
  assert.equal(env.client.stats().memoryHits, 3);
  assert.equal(env.client.stats().cacheHits, 3);
  // Without the memory, the same warm read goes to KV.
  using bare = await setup({ kv: counting.kv, client: { memoryRecords: 0 } });
  await bare.client.items(ids);
  assert.ok(counting.getMany() > reads, "read from KV");
  assert.equal(bare.client.stats().memoryHits, 0);
  assert.equal(bare.requests("/v2/items").length, 0, "the first client's records, shared in KV");
});

Deno.test("prices() judge a record held in memory by its own fetchedAt: read again after 60 s", async () => {
  using env = await setup();
  const ids = tradeableIds(env.fake, 2);
  await env.client.prices(ids);
  env.clock.advance(59_999);
  await env.client.prices(ids);
  assert.equal(env.requests("/v2/commerce/prices").length, 1, "fresh for 60 s");
  env.clock.advance(1);
  await env.client.prices(ids);
  assert.equal(env.requests("/v2/commerce/prices").length, 2, "no longer fresh: asked again");
});

Deno.test("prices(): another instance's newer record is seen once this process's copy is no longer fresh", async () => {
  using env = await setup();
  const [id] = tradeableIds(env.fake, 1);
  assert.ok(id !== undefined);
  const first = await env.client.prices([id]);
  const fetchedAt = env.clock.now();
  env.clock.advance(30_000);
  // Another instance refreshed the record in the shared KV 30 s later, at another price.
  const newer = { ...first.found[0]!, sells: { quantity: 1, unit_price: 123_456 } };
  await new RecordCache(env.kv, new Gw2Keys("http://gw2.fake"), silentLogger).putMany("price", [{
    id,
    entry: { fetchedAt: fetchedAt + 30_000, found: true, value: newer },
    expireInMs: 86_460_000,
  }]);
  const held = await env.client.prices([id]);
  assert.deepEqual(held.found, first.found, "this process's copy, fresh for 30 s more");
  env.clock.advance(30_000);
  const seen = await env.client.prices([id]);
  assert.deepEqual(seen.found, [newer], "the shared record, without asking upstream");
  assert.equal(env.requests("/v2/commerce/prices").length, 1);
});

Deno.test("prices(): with KV failing and upstream down, an expired record held in memory is served stale", async () => {
  using memoryKv = await openMemoryKv();
  let failing = false;
  const kv = new Proxy(memoryKv, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === "getMany" && failing) {
        return () => Promise.reject(new TypeError("database is unavailable"));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  using env = await setup({ kv });
  const ids = tradeableIds(env.fake, 1);
  const first = await env.client.prices(ids);
  env.clock.advance(61_000);
  failing = true;
  env.fake.control.injectFault("server_error", { times: Infinity });
  const stale = await env.client.prices(ids);
  assert.deepEqual(stale.found, first.found);
  assert.ok((stale.staleAgeMs ?? 0) >= 61_000, "served with its age");
  assert.ok(env.lines.some((line) => line.includes("gw2 cache read failed")));
});

Deno.test("items() answers a repeat within 24 h from KV and asks again after it", async () => {
  using env = await setup();
  const ids = knownItemIds(env.fake, 150);
  await env.client.items(ids);
  env.clock.advance(23 * HOUR);
  const again = await env.client.items(ids);
  assert.equal(again.found.length, 150);
  assert.equal(env.requests("/v2/items").length, 1, "no request within the TTL");
  env.clock.advance(2 * HOUR);
  await env.client.items(ids);
  assert.equal(env.requests("/v2/items").length, 2, "one request after the TTL");
  const stats = env.client.stats();
  assert.equal(stats.cacheHits, 150);
  assert.equal(stats.cacheMisses, 300);
});

Deno.test("prices() stays fresh for 60 s", async () => {
  using env = await setup();
  const ids = tradeableIds(env.fake, 5);
  const first = await env.client.prices(ids);
  assert.equal(first.found.length, 5);
  assert.ok(first.found.every((price) => typeof price.sells.unit_price === "number"));
  env.clock.advance(59_000);
  await env.client.prices(ids);
  assert.equal(env.requests("/v2/commerce/prices").length, 1);
  env.clock.advance(2_000);
  await env.client.prices(ids);
  assert.equal(env.requests("/v2/commerce/prices").length, 2);
});

Deno.test("items() reports unknown ids as missing and remembers them for an hour", async () => {
  using env = await setup();
  const [known] = knownItemIds(env.fake, 1);
  assert.ok(known !== undefined);
  const partial = await env.client.items([UNKNOWN_IDS[0] ?? 0, known, UNKNOWN_IDS[1] ?? 0]);
  assert.deepEqual(partial.found.map((item) => item.id), [known]);
  assert.deepEqual(partial.missingIds, UNKNOWN_IDS.slice(0, 2));
  assert.equal(env.requests("/v2/items")[0]?.status, 206);
  const none = await env.client.items([UNKNOWN_IDS[2] ?? 0]);
  assert.deepEqual(none, { found: [], missingIds: [UNKNOWN_IDS[2]] });
  assert.equal(env.requests("/v2/items")[1]?.status, 404, "all ids provided are invalid");
  env.clock.advance(HOUR - 1000);
  await env.client.items(UNKNOWN_IDS);
  assert.equal(env.requests("/v2/items").length, 2, "unknown ids are not asked again");
  assert.equal(env.client.stats().negativeHits, 3);
  env.clock.advance(2000);
  await env.client.items(UNKNOWN_IDS);
  assert.equal(env.requests("/v2/items").length, 3, "asked again after an hour");
});

Deno.test("items() never asks upstream about ids that cannot exist", async () => {
  using env = await setup();
  const read = await env.client.items([0, -5, 1.5, -5]);
  assert.deepEqual(read, { found: [], missingIds: [0, -5, 1.5] });
  assert.deepEqual(await env.client.prices([]), { found: [], missingIds: [] });
  assert.deepEqual(await env.client.searchRecipes({ input: -1 }), { value: [] });
  assert.equal(env.requests().length, 0);
});

Deno.test("recipes() read the 2022-03-09 schema, and searchRecipes() and lists are cached", async () => {
  using env = await setup();
  const [recipeId] = env.fake.world.recipes.keys();
  assert.ok(recipeId !== undefined);
  const recipes = await env.client.recipes([recipeId]);
  const recipe = recipes.found[0];
  assert.ok(recipe);
  assert.ok(recipe.ingredients.length > 0);
  assert.ok(recipe.ingredients.every((ingredient) => typeof ingredient.type === "string"));
  const search = await env.client.searchRecipes({ output: recipe.output_item_id });
  assert.ok(search.value.includes(recipeId));
  const materials = await env.client.materials();
  assert.ok(materials.value.length >= 9);
  const currencies = await env.client.currencies();
  assert.ok(currencies.value.some((currency) => currency.id === 1));
  await env.client.searchRecipes({ output: recipe.output_item_id });
  await env.client.materials();
  await env.client.currencies();
  assert.deepEqual(
    env.requests().map((request) => request.path),
    ["/v2/recipes", "/v2/recipes/search", "/v2/materials", "/v2/currencies"],
  );
  assert.match(env.requests("/v2/recipes/search")[0]?.query ?? "", /output=\d+/);
});

Deno.test("a reopened KV file serves cached records with no upstream request", async () => {
  await using file = await tempKvFile();
  const clock = new ManualClock({ advance: "delays" });
  let ids: number[];
  {
    using kv = await Deno.openKv(file.path);
    using env = await setup({ kv, clock });
    ids = knownItemIds(env.fake, 250);
    await env.client.items(ids);
    await env.client.materials();
    assert.equal(env.requests().length, 3);
  }
  using kv = await Deno.openKv(file.path);
  using env = await setup({ kv, clock });
  const read = await env.client.items(ids);
  assert.equal(read.found.length, 250);
  assert.equal((await env.client.materials()).value.length >= 9, true);
  assert.equal(env.requests().length, 0);
});

Deno.test("two clients on two KV handles of one file share one budget: what they send fits one bucket", async () => {
  await using file = await tempKvFile();
  const kvOne = await Deno.openKv(file.path);
  const kvTwo = await Deno.openKv(file.path);
  try {
    // Real time on both sides: the question is how the bucket behaves under real concurrency
    // (two handles racing their check-and-set on one SQLite file).
    const fake = createFakeGw2({ rateBurst: 10, ratePerSec: 10 });
    const sent: number[] = [];
    const make = (kv: Deno.Kv, seed: number) =>
      createGw2Client({
        baseUrl: "http://gw2.fake",
        kv,
        clock: systemClock,
        log: captureLogs().log,
        rate: { burst: 10, perSec: 10 },
        fetch: (input, init) => {
          sent.push(Date.now());
          return fake.fetch(new Request(input, init));
        },
        random: seeded(seed).next,
        coalesceWindowMs: 0,
      });
    const clients = [make(kvOne, 1), make(kvTwo, 2)];
    const ids = knownItemIds(fake, 24);
    const start = Date.now();
    // Each client reads its own ids one by one: 24 upstream requests against the shared budget.
    await Promise.all(clients.map(async (client, which) => {
      for (const id of ids.filter((_, index) => index % 2 === which)) {
        const read = await client.items([id]);
        assert.equal(read.found.length, 1);
      }
    }));
    // What was sent, every attempt included, fits one bucket of our capacity: a bound on the
    // send times that event-loop lag can only loosen. (Whether upstream's own bucket, counting
    // arrivals, ever answered 429 depends on that lag too: the spare tokens absorb 250 ms of it.)
    assert.ok(sent.length >= 24);
    assert.equal(overspent(sent, start, bucketCapacity(10, 10), 10), undefined);
    // Without a wait, the bucket admits at most its capacity plus what refilled meanwhile: sent
    // faster than that, the clients must have waited. (On a machine so slow that the refill kept
    // up, no wait was owed: the bound above is the test then.)
    const waits = clients.reduce((total, client) => total + client.stats().bucketWaits, 0);
    const elapsedS = (Date.now() - start) / 1000;
    if (sent.length > bucketCapacity(10, 10) + 10 * elapsedS) {
      assert.ok(waits > 0, `the budget made clients wait (${sent.length} sent in ${elapsedS} s)`);
    }
  } finally {
    kvOne.close();
    kvTwo.close();
  }
});

Deno.test("a 500 followed by a 200 is retried and served", async () => {
  using env = await setup();
  const ids = knownItemIds(env.fake, 3);
  env.fake.control.injectFault("server_error", { endpoint: "/v2/items", times: 1 });
  const read = await env.client.items(ids);
  assert.equal(read.found.length, 3);
  assert.deepEqual(env.requests("/v2/items").map((request) => request.status), [500, 200]);
  assert.equal(env.client.stats().upstreamRetries, 1);
});

Deno.test("API not active is not retried", async () => {
  using env = await setup();
  env.fake.control.injectFault("not_active", { endpoint: "/v2/items", times: Infinity });
  await assert.rejects(env.client.items(knownItemIds(env.fake, 2)), (error) => {
    assert.ok(error instanceof Gw2UpstreamError);
    assert.equal(error.reason, "not_active");
    return true;
  });
  assert.equal(env.requests("/v2/items").length, 1);
});

Deno.test("an HTML 503 is reported as the API being disabled", async () => {
  using env = await setup();
  env.fake.control.injectFault("html_503", { times: Infinity });
  await assert.rejects(env.client.currencies(), { reason: "disabled" });
  assert.equal(env.requests().length, 1);
});

Deno.test("a call-scoped view ends a hanging read at its deadline, stale when it can", async (t) => {
  // The clock moves only when the test moves it: the first attempt's 10 s timeout once upstream
  // has it, then the deadline once the retry is sent. (settleOnClock would also move it while KV
  // answers, and on a loaded machine seconds of that leave no room for the retry.)
  const driveHang = async <T>(
    clock: ManualClock,
    sent: () => number,
    read: Promise<T>,
    deadlineMs: number,
  ) => {
    const started = clock.now();
    const tracked = track(read.then((value) => ({ value }), (error: unknown) => ({ error })));
    await untilSettled(() => sent() === 1 || tracked.settled, "the first attempt");
    clock.advance(10_000);
    await untilSettled(() => sent() === 2 || tracked.settled, "the retry");
    clock.advance(started + deadlineMs - clock.now());
    const settled = await within(tracked.promise, "the answer at the deadline");
    return { settled, elapsedMs: clock.now() - started };
  };
  await t.step("no cache: a timeout at the deadline", async () => {
    using env = await setup();
    env.fake.control.injectFault("hang", { endpoint: "/v2/items", times: Infinity });
    using deadline = startDeadline(env.clock, 14_000);
    const read = withinDeadline(deadline, () => env.client.items(knownItemIds(env.fake, 2)));
    const sent = () => env.requests("/v2/items").length;
    const { settled, elapsedMs } = await driveHang(env.clock, sent, read, 14_000);
    assert.ok("error" in settled && settled.error instanceof Gw2UpstreamError);
    assert.equal(settled.error.reason, "timeout");
    assert.equal(elapsedMs, 14_000);
    assert.equal(env.requests("/v2/items").length, 2);
  });
  await t.step("an expired entry: served stale at the deadline", async () => {
    using env = await setup();
    const ids = knownItemIds(env.fake, 2);
    await env.client.items(ids);
    env.clock.advance(25 * HOUR);
    env.fake.control.injectFault("hang", { times: Infinity });
    using deadline = startDeadline(env.clock, 14_000);
    const before = env.requests("/v2/items").length;
    const read = withinDeadline(deadline, () => env.client.items(ids));
    const sent = () => env.requests("/v2/items").length - before;
    const { settled, elapsedMs } = await driveHang(env.clock, sent, read, 14_000);
    assert.ok("value" in settled);
    assert.deepEqual(settled.value.found.map((item) => item.id), ids);
    assert.equal(settled.value.staleAgeMs, 25 * HOUR + 14_000);
    assert.equal(elapsedMs, 14_000);
  });
  await t.step("documents too", async () => {
    using env = await setup();
    env.fake.control.injectFault("hang", { times: Infinity });
    using deadline = startDeadline(env.clock, 5_000);
    const settled = await settleOnClock(
      withinDeadline(deadline, () => env.client.currencies()),
      env.clock,
    );
    assert.ok(!settled.ok && settled.error instanceof Gw2UpstreamError);
    assert.equal(settled.elapsedMs, 5_000);
  });
});

Deno.test("a read waits for budget as long as its own deadline allows: 20 s under 45 s, none under 14 s", async (t) => {
  // A cold ranking (45 s) on a busy bucket must queue, not fail after a fixed 10 s.
  const ready = async () => {
    const clock = new ManualClock();
    const env = await setup({ clock, client: { rate: { burst: 1, perSec: 0.05 } } });
    const [first, second] = knownItemIds(env.fake, 2);
    await settleOnClock(env.client.items([first!]), clock);
    return { env, clock, second: second! };
  };
  await t.step("a long deadline waits for the refill", async () => {
    const { env, clock, second } = await ready();
    using _env = env;
    using deadline = startDeadline(clock, 45_000);
    const settled = await settleOnClock(
      withinDeadline(deadline, () => env.client.items([second])),
      clock,
    );
    assert.ok(settled.ok, String(!settled.ok && settled.error));
    assert.deepEqual(settled.value.found.map((item) => item.id), [second]);
    // Not before the refill (20 s at 0.05/s; the clock may also have crept while KV answered,
    // which shortens the wait, never the time): one request each, no retry, within its deadline.
    assert.ok(settled.elapsedMs >= 19_000, `${settled.elapsedMs}`);
    assert.equal(env.requests("/v2/items").length, 2);
  });
  await t.step("a 15 s call is told when to come back, at once", async () => {
    const { env, clock, second } = await ready();
    using _env = env;
    using deadline = startDeadline(clock, 14_000);
    const paused = clock.delays.length;
    const settled = await settleOnClock(
      withinDeadline(deadline, () => env.client.items([second])),
      clock,
    );
    assert.ok(!settled.ok && settled.error instanceof Gw2RateLimitedError);
    // At once: no pause for the refill (only the coalescing window's few ms), whatever the
    // clock crept while KV answered.
    const pauses = clock.delays.slice(paused);
    assert.ok(pauses.every((ms) => ms <= 25), `paused ${pauses}`);
    assert.equal(env.requests("/v2/items").length, 1, "the refused read never left");
  });
});

Deno.test("callers with different deadlines share one request; the first to give up fails alone", async () => {
  const clock = new ManualClock({ advance: "delays" });
  using env = await setup({ clock, fake: { sleep: (ms, signal) => clock.timer(ms, signal) } });
  env.fake.control.setLatency(3_000, "/v2/items");
  const ids = knownItemIds(env.fake, 4);
  using short = startDeadline(clock, 1_000);
  using long = startDeadline(clock, 14_000);
  const early = withinDeadline(short, () => env.client.items(ids.slice(0, 3)));
  const late = withinDeadline(long, () => env.client.items(ids.slice(1)));
  const [settledEarly, settledLate] = await Promise.all([
    settleOnClock(early, clock),
    settleOnClock(late, clock),
  ]);
  assert.ok(!settledEarly.ok && settledEarly.error instanceof Gw2UpstreamError);
  assert.equal(settledEarly.elapsedMs, 1_000);
  assert.ok(settledLate.ok);
  assert.deepEqual(settledLate.value.found.map((item) => item.id), ids.slice(1));
  assert.deepEqual(env.requests("/v2/items").map((request) => request.idCount), [4]);
  assert.equal(env.client.stats().upstreamRequests, 1);
});

Deno.test("a read nobody waits for any more is abandoned: the hanging request is cut, not retried", async () => {
  using env = await setup();
  env.fake.control.injectFault("hang", { endpoint: "/v2/items", times: Infinity });
  using deadline = startDeadline(env.clock, 2_000);
  const settled = await settleOnClock(
    withinDeadline(deadline, () => env.client.items(knownItemIds(env.fake, 2))),
    env.clock,
  );
  assert.equal(settled.ok, false);
  await until(() => env.clock.pendingSleeps === 0);
  assert.equal(env.client.stats().upstreamRequests, 1, "no retry once nobody waits");
});

Deno.test("truncated JSON is a clean upstream error", async () => {
  using env = await setup();
  env.fake.control.injectFault("truncated_json", { endpoint: "/v2/items", times: Infinity });
  await assert.rejects(env.client.items(knownItemIds(env.fake, 2)), (error) => {
    assert.ok(error instanceof Gw2UpstreamError);
    assert.equal(error.reason, "malformed");
    assert.ok(!error.message.includes("gw2.fake"));
    return true;
  });
});

Deno.test("an upstream 429 is retried after a pause", async () => {
  using env = await setup();
  env.fake.control.injectFault("rate_limited", { endpoint: "/v2/items", times: 1 });
  const read = await env.client.items(knownItemIds(env.fake, 2));
  assert.equal(read.found.length, 2);
  assert.deepEqual(env.requests("/v2/items").map((request) => request.status), [429, 200]);
});

Deno.test("stale-if-error serves the expired record with its age", async (t) => {
  await t.step("bulk records", async () => {
    using env = await setup();
    const ids = knownItemIds(env.fake, 2);
    await env.client.items(ids);
    env.clock.advance(25 * HOUR);
    env.fake.control.injectFault("server_error", { times: Infinity });
    const before = env.clock.now();
    const read = await env.client.items(ids);
    assert.deepEqual(read.found.map((item) => item.id), ids);
    assert.equal(read.staleAgeMs, 25 * HOUR + (env.clock.now() - before));
    assert.equal(env.client.stats().staleServes, 2);
  });
  await t.step("documents", async () => {
    using env = await setup();
    await env.client.currencies();
    env.clock.advance(25 * HOUR);
    env.fake.control.injectFault("not_active", { times: Infinity });
    const read = await env.client.currencies();
    assert.ok(read.value.length > 0);
    assert.equal(read.staleAgeMs, 25 * HOUR);
  });
  await t.step("never beyond the stale window, never for account reads", async () => {
    using env = await setup();
    await env.client.doc("account", { key: TEST_KEYS.full });
    env.clock.advance(6 * 60_000);
    env.fake.control.injectFault("server_error", { times: Infinity });
    await assert.rejects(env.client.doc("account", { key: TEST_KEYS.full }), Gw2UpstreamError);
  });
});

Deno.test("an account entry past its 5 minutes is deleted on read, even when upstream fails", async () => {
  using env = await setup();
  await env.client.doc("account", { key: TEST_KEYS.full });
  const accountEntries = async () => {
    const found = [];
    for await (const entry of env.kv.list({ prefix: [] })) {
      if (entry.key.includes("acct")) found.push(entry.key);
    }
    return found;
  };
  assert.equal((await accountEntries()).length, 1);
  env.clock.advance(5 * 60_000);
  env.fake.control.injectFault("server_error", { times: Infinity });
  await assert.rejects(env.client.doc("account", { key: TEST_KEYS.full }), Gw2UpstreamError);
  assert.deepEqual(await accountEntries(), [], "nothing of the account is kept past 5 minutes");
});

Deno.test("account reads are cached 5 minutes under an HMAC of the key", async () => {
  using env = await setup();
  const key = TEST_KEYS.full;
  const account = await env.client.doc("account", { key: key });
  assert.equal(typeof account.value.name, "string");
  const names = (await env.client.doc("characters", { key: key })).value;
  assert.ok(names.length > 0);
  await env.client.doc("account", { key: key });
  await env.client.doc("characters", { key: key });
  assert.equal(env.requests("/v2/account").length, 1);
  assert.equal(env.requests("/v2/characters").length, 1);
  env.clock.advance(5 * 60_000);
  await env.client.doc("account", { key: key });
  assert.equal(env.requests("/v2/account").length, 2);
  // Another key is another cache identity.
  await env.client.doc("account", { key: TEST_KEYS.noWallet });
  assert.equal(env.requests("/v2/account").length, 3);
});

Deno.test("account cache entries survive a restart: the key-hash secret lives in KV", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  {
    using first = await setup({ kv, clock });
    await first.client.doc("account", { key: TEST_KEYS.full });
    assert.equal(first.requests("/v2/account").length, 1);
  }
  // A new process (a restart, another instance, a rotated MCP token) on the same KV.
  using second = await setup({ kv, clock });
  await second.client.doc("account", { key: TEST_KEYS.full });
  assert.equal(second.requests("/v2/account").length, 0, "served from the shared cache");
  const secrets = [];
  for await (const entry of kv.list({ prefix: [] })) {
    if (entry.key.at(-1) === "key-secret") secrets.push(entry.value);
  }
  assert.equal(secrets.length, 1);
  assert.ok(secrets[0] instanceof Uint8Array && secrets[0].byteLength === 32);
});

Deno.test("account reads still work, per process, while KV cannot yield the key-hash secret", async () => {
  using env = await setup();
  // KV fails on the secret's entry only (the cache and the bucket keep working). The cast
  // restores `get`'s generic signature, which a plain arrow function cannot declare.
  const realGet = env.kv.get.bind(env.kv);
  env.kv.get =
    ((key: Deno.KvKey, options?: { consistency?: Deno.KvConsistencyLevel }) =>
      key.at(-1) === "key-secret"
        ? Promise.reject(new Error("KV unavailable"))
        : realGet(key, options)) as typeof env.kv.get;
  await env.client.doc("account", { key: TEST_KEYS.full });
  await env.client.doc("account", { key: TEST_KEYS.full });
  assert.equal(env.requests("/v2/account").length, 1, "a process-local secret stands in");
  assert.ok(env.lines.some((line) => line.includes("key-hash secret unavailable")));
});

Deno.test("characterBags() reads every character with its bags in one request", async () => {
  using env = await setup();
  const all = await env.client.doc("characterBags", { key: TEST_KEYS.veteran });
  assert.equal(all.value.length, 19);
  const world = env.fake.world.veteran;
  for (const character of all.value) {
    assert.deepEqual(character.bags, world.characters.get(character.name)?.inventory.bags);
  }
  assert.equal(env.requests("/v2/characters").length, 1);
  const bare = await env.client.doc("characterBags", { key: TEST_KEYS.noInventories });
  assert.ok(bare.value.every((character) => character.bags === undefined), "no bags without scope");
  await env.client.doc("characterBags", { key: TEST_KEYS.veteran });
  assert.equal(env.requests("/v2/characters").length, 2, "cached under the key's HMAC");
});

Deno.test("every account read works, URL-encodes character names, and leaves the key nowhere", async () => {
  using env = await setup();
  const key = TEST_KEYS.full;
  const names = (await env.client.doc("characters", { key: key })).value;
  await env.client.doc("accountMaterials", { key: key });
  await env.client.doc("accountWallet", { key: key });
  await env.client.doc("accountBank", { key: key });
  await env.client.doc("accountInventory", { key: key });
  const token = await env.client.doc("tokenInfo", { key: key });
  assert.ok(token.value.permissions.includes("inventories"));
  assert.equal((await env.client.doc("characterBags", { key: key })).value.length, names.length);
  for (const name of names) {
    const inventory = await env.client.doc("characterInventory", { key: key, name: name });
    assert.ok(Array.isArray(inventory.value.bags));
  }
  const paths = env.requests().map((request) => request.path);
  assert.ok(names.some((name) => encodeURIComponent(name) !== name), "names needing encoding");
  for (const name of names) {
    assert.ok(paths.includes(`/v2/characters/${encodeURIComponent(name)}/inventory`), name);
  }
  await assert.rejects(env.client.doc("accountWallet", { key: TEST_KEYS.noWallet }), (error) => {
    assert.ok(error instanceof Gw2ScopeMissingError);
    assert.equal(error.scope, "wallet");
    return true;
  });
  await assert.rejects(env.client.doc("account", { key: UNKNOWN_KEY }), Gw2KeyRejectedError);
  await assert.rejects(
    env.client.doc("characterInventory", { key: key, name: "Nobody Here" }),
    Gw2NotFoundError,
  );

  const secrets = [key, key.slice(0, 36), key.slice(36), UNKNOWN_KEY, TEST_KEYS.noWallet];
  const decoder = new TextDecoder();
  let entries = 0;
  for await (const entry of env.kv.list({ prefix: [] })) {
    entries++;
    const value = entry.value instanceof Uint8Array ? decoder.decode(entry.value) : entry.value;
    const text = JSON.stringify([entry.key, value]);
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `KV entry holds a key: ${text}`);
    }
  }
  assert.ok(entries > 10, `scanned ${entries} KV entries`);
  assert.ok(env.lines.length > 10, `scanned ${env.lines.length} log lines`);
  for (const line of env.lines) {
    for (const secret of secrets) {
      assert.ok(!line.includes(secret), `log line holds a key: ${line}`);
    }
  }
});

Deno.test("one JSON log line per upstream call, with endpoint, ids, status, ms and attempt", async () => {
  using env = await setup();
  await env.client.items(knownItemIds(env.fake, 3));
  await env.client.items(knownItemIds(env.fake, 3));
  const upstream = logRecords(env.lines, "gw2 upstream");
  assert.equal(upstream.length, 1);
  const [line] = upstream;
  assert.ok(line);
  assert.equal(line.endpoint, "/v2/items");
  assert.equal(line.ids, 3);
  assert.equal(line.status, 200);
  assert.equal(line.attempt, 1);
  assert.equal(typeof line.ms, "number");
  const reads = logRecords(env.lines, "gw2 read");
  assert.deepEqual(reads.map((read) => [read.hit, read.miss]), [[0, 3], [3, 0]]);
});

Deno.test("bucketCapacity() holds back what upstream refills in 250 ms, at least one token", () => {
  assert.equal(bucketCapacity(300, 5), 298);
  assert.equal(bucketCapacity(10, 10), 7);
  assert.equal(bucketCapacity(50, 1), 49);
  assert.equal(bucketCapacity(1, 5), 1, "never below one");
});

Deno.test("stats() counts upstream traffic and bucketLevel() reads the shared budget", async () => {
  using env = await setup({ client: { rate: { burst: 50, perSec: 1 } } });
  await env.client.items(knownItemIds(env.fake, 300));
  const stats = env.client.stats();
  assert.equal(stats.upstreamRequests, 2);
  assert.equal(stats.cacheMisses, 300);
  // Capacity 49 (one token held back at 1/s, see bucketCapacity), minus the two requests.
  assert.ok(Math.abs((await env.client.bucketLevel()) - 47) < 1);
  env.client.resetStats();
  assert.equal(env.client.stats().upstreamRequests, 0);
});

Deno.test("createGw2Client() talks HTTP to a listening fake with the global fetch", async (t) => {
  await using fake = await startFakeGw2();
  using kv = await openMemoryKv();
  const { log, lines } = captureLogs();
  const client = createGw2Client({
    baseUrl: fake.url,
    kv,
    clock: systemClock,
    log,
    rate: { burst: 300, perSec: 5 },
    timeoutMs: 200,
    maxRetries: 0,
  });
  await t.step("a bulk read and an account read", async () => {
    const ids = knownItemIds(fake, 250);
    const read = await client.items(ids);
    assert.equal(read.found.length, 250);
    const wallet = await client.doc("accountWallet", { key: TEST_KEYS.full });
    assert.ok(wallet.value.length > 0);
    assert.deepEqual(
      fake.control.requests.map((request) => [request.path, request.keyLabel]),
      [["/v2/items", undefined], ["/v2/items", undefined], ["/v2/account/wallet", "full"]],
    );
  });
  await t.step("a hang is cut by the real timer and the aborted fetch is settled", async () => {
    fake.control.injectFault("hang", { endpoint: "/v2/currencies", times: Infinity });
    await assert.rejects(client.currencies(), { reason: "timeout" });
    fake.control.clearFaults();
  });
  assert.ok(lines.every((line) => !line.includes(TEST_KEYS.full)));
});

Deno.test("onItemsFetched (write-through) sees each item upstream returns, once, no cache hit", async () => {
  const seen: number[][] = [];
  const onItemsFetched = (items: readonly { id: number }[]) => {
    seen.push(items.map((item) => item.id).sort((a, b) => a - b));
    return Promise.resolve();
  };
  using s = await setup({ client: { onItemsFetched } });
  const ids = [19721, 30703, ...UNKNOWN_IDS];
  await s.client.items(ids);
  assert.deepEqual(seen, [[19721, 30703]], "found records only");
  await s.client.items(ids);
  await s.client.prices([19721]);
  await s.client.recipes([21]);
  assert.equal(seen.length, 1, "neither cache hits nor other endpoints feed it");
});

Deno.test("onItemsFetched is awaited, and its failure is logged, never the read's", async () => {
  let settled = false;
  const slow = async () => {
    await Promise.resolve();
    settled = true;
  };
  using awaited = await setup({ client: { onItemsFetched: slow } });
  await awaited.client.items([19721]);
  assert.equal(settled, true, "done before the read resolves");
  using failing = await setup({
    client: { onItemsFetched: () => Promise.reject(new Error("index down")) },
  });
  const read = await failing.client.items([19721]);
  assert.deepEqual(read.found.map((item) => item.id), [19721]);
  const logged = logRecords(failing.lines, "gw2 fetch observer failed");
  assert.deepEqual(logged.map((line) => line.endpoint), ["/v2/items"]);
});

Deno.test("onItemsFetched is awaited only up to the KV bound: a stalled index costs 2 s, not the call", async () => {
  // Time moves only when this test moves it (pauses aside): the bound is stated in its steps,
  // whatever the machine's load does to the real I/O before the stall.
  const clock = new ManualClock({ advance: "delays" });
  let stalled!: () => void;
  const reached = new Promise<void>((resolve) => stalled = resolve);
  using env = await setup({
    clock,
    client: {
      kvClock: clock,
      onItemsFetched: () => {
        stalled();
        return new Promise<void>(() => {});
      },
    },
  });
  const read = track(env.client.items([19721]));
  await reached; // the items are cached and handed to the index, which never answers
  clock.advance(KV_TIMEOUT_MS - 1);
  await afterReactions();
  assert.equal(read.settled, false, "1 ms before the bound the read still waits for the index");
  clock.advance(1);
  await afterReactions();
  assert.equal(read.settled, true, "at the bound it answers (nothing but reactions remained)");
  assert.deepEqual((await read.promise).found.map((item) => item.id), [19721]);
  assert.equal(logRecords(env.lines, "gw2 fetch observer failed").length, 1);
});

Deno.test("a stalled key-hash secret read is bounded: a process-local secret stands in after 2 s", async () => {
  const clock = new ManualClock({ advance: "delays" });
  using env = await setup({ clock, client: { kvClock: clock } });
  // Only the secret's entry stalls (the cache and the bucket keep working); the cast restores
  // `get`'s generic signature, as in the test above.
  let stalled!: () => void;
  const reached = new Promise<void>((resolve) => stalled = resolve);
  const realGet = env.kv.get.bind(env.kv);
  env.kv.get = ((key: Deno.KvKey, options?: { consistency?: Deno.KvConsistencyLevel }) => {
    if (key.at(-1) !== "key-secret") return realGet(key, options);
    stalled();
    return new Promise(() => {});
  }) as typeof env.kv.get;
  const fallback = () => env.lines.some((line) => line.includes("key-hash secret unavailable"));
  const read = track(env.client.doc("account", { key: TEST_KEYS.full }));
  await reached;
  clock.advance(KV_TIMEOUT_MS - 1);
  await afterReactions();
  assert.equal(fallback(), false, "1 ms before the bound the secret is still awaited");
  clock.advance(1);
  await afterReactions();
  assert.equal(fallback(), true, "at the bound a process-local secret stands in");
  const settled = await settleOnClock(read.promise, clock);
  assert.ok(settled.ok, "and the read goes on with it");
});
