/**
 * The fake GW2 API for the bench: the project's fake (`tests/fake_gw2/`) served on a free port of
 * 127.0.0.1, inside the bench process, so upstream latency is real HTTP and the bench reads the
 * fake's request log directly. It also records when each request arrived, which the budget
 * scenario checks against the token bucket, and tells when upstream has gone quiet (a Priory's
 * startup warm-up is over).
 *
 * @module
 */

import { createFakeGw2 } from "../../tests/fake_gw2/mod.ts";
import type { BenchFake, FakeOptions } from "../scenario.ts";

/** A listening fake; close it when done. */
export interface ServedFake extends BenchFake {
  close(): Promise<void>;
}

/** Serves a fake GW2 API on 127.0.0.1 with the given latency and bucket. */
export function serveFake(options: FakeOptions = {}): ServedFake {
  const fake = createFakeGw2({
    rateBurst: options.rate?.burst ?? 300,
    ratePerSec: options.rate?.perSec ?? 5,
  });
  if (options.latencyMs !== undefined) fake.control.setLatency(options.latencyMs);
  const arrivals: { at: number; path: string }[] = [];
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
    // Reached only when a client went away mid-latency; nobody is left to read an answer.
    onError: () => new Response(null, { status: 500 }),
  }, (request) => {
    arrivals.push({ at: performance.now(), path: new URL(request.url).pathname });
    return fake.fetch(request);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    fake,
    arrivals,
    async quiet(quietMs = 1_000, maxMs = 60_000) {
      const started = performance.now();
      for (;;) {
        const last = arrivals.at(-1)?.at ?? started;
        const now = performance.now();
        if (now - last >= quietMs || now - started >= maxMs) return arrivals.length;
        await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs - (now - last), 250)));
      }
    },
    close: () => server.shutdown(),
  };
}

/** The ids of a logged bulk request (`ids=1,2,3` in its query); none for other requests. */
export function requestIds(entry: { readonly query: string }): number[] {
  const ids = new URLSearchParams(entry.query).get("ids");
  if (ids === null || ids === "all") return [];
  return ids.split(",").map(Number).filter(Number.isSafeInteger);
}
