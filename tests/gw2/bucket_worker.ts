/**
 * A worker process of the cross-process token-bucket test: opens the KV file given on the
 * command line, waits for the common start time, then takes tokens as fast as it can from two
 * bucket instances until the end time, and prints one JSON line with what it was admitted.
 *
 * Usage: `deno run --allow-read --allow-write tests/gw2/bucket_worker.ts <kv path> <burst>
 * <perSec> <startAt epoch ms> <durationMs>`
 *
 * @module
 */

import { systemClock } from "../../src/async/clock.ts";
import { TokenBucket } from "../../src/gw2/token_bucket.ts";

const [path, burst, perSec, startAt, durationMs] = Deno.args;
if (path === undefined || durationMs === undefined) {
  throw new TypeError("Cannot run the bucket worker: expected 5 arguments");
}
using kv = await Deno.openKv(path);
const options = {
  kv,
  key: ["test", "bucket"],
  burst: Number(burst),
  perSec: Number(perSec),
  clock: systemClock,
};
const instances = [new TokenBucket(options), new TokenBucket(options)];
await systemClock.sleep(Math.max(0, Number(startAt) - Date.now()));
const end = Number(startAt) + Number(durationMs);
const admittedAt: number[] = [];
let calls = 0;
await Promise.all(instances.map(async (bucket) => {
  while (Date.now() < end) {
    calls++;
    if ((await bucket.tryTake()).admitted) admittedAt.push(Date.now());
  }
}));
// deno-lint-ignore no-console -- the parent test reads this line
console.log(JSON.stringify({ admittedAt, calls }));
