/**
 * Servers inside the current process, for the runner's own test (which must not spawn): any
 * request handler served on a free port of 127.0.0.1 as a {@linkcode BenchServer}, and the floor.
 * `deno task bench` itself always runs servers in processes of their own.
 *
 * @module
 */

import { createFloorHandler } from "../floor.ts";
import type { BenchServer } from "../scenario.ts";

/** Serves `handler` on a free port of 127.0.0.1; `release` runs after the server stops. */
export function serveInProcess(
  handler: (request: Request) => Promise<Response>,
  release: () => Promise<void> = () => Promise.resolve(),
): BenchServer {
  const spawnedAt = performance.now();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const listeningAt = performance.now();
  let closing: Promise<void> | undefined;
  return {
    mcpUrl: `http://127.0.0.1:${server.addr.port}/mcp`,
    spawnedAt,
    listeningAt,
    // This process's figures would include the clients'.
    memory: () => Promise.resolve(undefined),
    cpuTime: () => Promise.resolve(undefined),
    close: () =>
      closing ??= (async () => {
        await server.shutdown();
        await release();
      })(),
  };
}

/** The floor, served in this process. */
export function serveFloor(): BenchServer {
  return serveInProcess(createFloorHandler().fetch);
}
