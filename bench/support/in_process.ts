/**
 * Priory and the floor served inside the bench process (`--in-process`, and the runner's own
 * test): wired exactly as `main.ts` wires them — `parseConfig` over the same environment a
 * spawned Priory gets, `createGw2Client` on KV, `createHandler` — but without a process of their
 * own, so nothing is spawned. Figures from this mode share one thread with the clients; the
 * default mode runs each server in its own process.
 *
 * @module
 */

import { systemClock } from "../../src/clock.ts";
import { parseConfig } from "../../src/config.ts";
import { createGw2Client } from "../../src/gw2/client.ts";
import { createHandler } from "../../src/http/handler.ts";
import { createLogger } from "../../src/log.ts";
import { createFloorHandler } from "../floor.ts";
import type { BenchServer } from "../scenario.ts";
import { prioryEnv, type SpawnPrioryOptions } from "./processes.ts";

/** Serves Priory in this process; its logs are formatted (as in production) and discarded. */
export async function servePriory(options: SpawnPrioryOptions): Promise<BenchServer> {
  const spawnedAt = performance.now();
  const env = prioryEnv(options);
  const config = parseConfig((name) => env[name], { mode: "start" });
  const log = createLogger({ level: config.logLevel, write: () => {} });
  const kv = await Deno.openKv(config.kvPath);
  const gw2 = createGw2Client({
    baseUrl: config.gw2ApiBase,
    kv,
    clock: systemClock,
    log,
    keySecret: config.authToken,
    rate: { burst: config.rateBurst, perSec: config.ratePerSec },
  });
  const handler = createHandler({ log, gw2, config });
  return serve(handler, spawnedAt, async () => {
    await handler.close();
    kv.close();
  });
}

/** Serves the floor in this process. */
export function serveFloor(): BenchServer {
  return serve(createFloorHandler().fetch, performance.now(), () => Promise.resolve());
}

function serve(
  handler: (request: Request) => Promise<Response>,
  spawnedAt: number,
  release: () => Promise<void>,
): BenchServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const listeningAt = performance.now();
  let closing: Promise<void> | undefined;
  return {
    mcpUrl: `http://127.0.0.1:${server.addr.port}/mcp`,
    spawnedAt,
    listeningAt,
    memory: () => {
      const { rss } = Deno.memoryUsage();
      return Promise.resolve({ rss, peak: rss });
    },
    // The bench's own process: its CPU time would include the clients'.
    cpuTime: () => Promise.resolve(undefined),
    close: () =>
      closing ??= (async () => {
        await server.shutdown();
        await release();
      })(),
  };
}
