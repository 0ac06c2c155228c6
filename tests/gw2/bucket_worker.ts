/**
 * A worker process of the cross-process token-bucket test: opens the KV file given on the
 * command line, says `ready` on stdout, reads the common start time (epoch ms) from a line on
 * stdin — the parent sends it once every worker is ready, so a slow spawn cannot leave one out —
 * waits for it, then takes tokens as fast as it can from two bucket instances for `durationMs`
 * (from its own start),
 * and prints one JSON line with what it was admitted.
 *
 * Usage: `deno run --allow-read --allow-write tests/gw2/bucket_worker.ts <kv path> <burst>
 * <perSec> <durationMs>`, then `<startAt>\n` on stdin.
 *
 * @module
 */

import { systemClock } from "../../src/async/clock.ts";
import { TokenBucket } from "../../src/gw2/token_bucket.ts";

const [path, burst, perSec, durationMs] = Deno.args;
if (path === undefined || durationMs === undefined) {
  throw new TypeError("Cannot run the bucket worker: expected 4 arguments");
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
// deno-lint-ignore no-console -- the parent waits for this line before choosing the start
console.log("ready");
const startAt = await firstLine(Deno.stdin.readable);
await systemClock.sleep(Math.max(0, Number(startAt) - Date.now()));
// From its own start: a worker that read the start late still takes its full turn.
const end = Date.now() + Number(durationMs);
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

/** The first line of `stream`. */
async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    const end = text.indexOf("\n");
    if (end !== -1) return text.slice(0, end);
  }
  return text;
}
