/**
 * The floor: a bare MCP server of the same SDK version Priory uses (`createMcpHandler` from
 * `@modelcontextprotocol/server`, a fresh `McpServer` per request, the same `auto` response
 * mode) with one `echo` tool and no I/O — no guard, no body bound, no KV, no upstream. Whatever
 * Priory costs above it is Priory's own.
 *
 * Run as a process (`deno run --allow-net=127.0.0.1 bench/floor.ts`) it listens on a free port of
 * 127.0.0.1 and prints `{"msg":"listening","port":N}`; the bench reads that line.
 *
 * @module
 */

import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/** The floor's one tool. */
export const ECHO_TOOL = "echo";

/**
 * The floor's request handler.
 *
 * @example
 * ```ts
 * const floor = createFloorHandler();
 * Deno.serve({ hostname: "127.0.0.1", port: 0 }, floor.fetch);
 * ```
 */
export function createFloorHandler(): { fetch(request: Request): Promise<Response> } {
  // Built once, as Priory builds its schemas: the floor must not pay what Priory does not.
  const inputSchema = z.object({ text: z.string() });
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "floor", version: "1.0.0" });
    server.registerTool(
      ECHO_TOOL,
      { description: "Echoes its text.", inputSchema },
      ({ text }) => ({
        content: [{ type: "text", text }],
      }),
    );
    return server;
  }, { responseMode: "auto" });
  return { fetch: (request) => handler.fetch(request) };
}

if (import.meta.main) {
  const floor = createFloorHandler();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => {
      // deno-lint-ignore no-console -- the listening line is how the bench learns the port
      console.log(JSON.stringify({ msg: "listening", port }));
    },
  }, floor.fetch);
  // A clean exit on SIGTERM, so a `--cpu-prof` run writes its profile.
  Deno.addSignalListener("SIGTERM", () => void server.shutdown());
}
