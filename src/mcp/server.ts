/**
 * Builds the MCP server for one request: a fresh `McpServer` with every tool definition
 * registered. A server instance serves exactly one request (the SDK refuses reuse), so this runs
 * per request; it is cheap (no I/O, schemas are converted lazily by the SDK).
 *
 * @module
 */

import {
  type CallToolResult,
  McpServer,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import type { z } from "zod";
import { isGw2Failure } from "../gw2/errors.ts";
import { describeError } from "../log.ts";
import { MissingGw2KeyError, type ToolDefinition, type ToolDeps } from "../tools/types.ts";
import { toolErrorText } from "./errors.ts";
import { leanSchema } from "./schema.ts";

/** How the server introduces itself in `initialize` / `server/discover`. */
export const SERVER_INFO = { name: "priory-mcp", version: "0.1.0" } as const;

/**
 * Capabilities advertised to clients. `listChanged: false`: the tool list never changes at run
 * time, and advertising it would invite 2026 clients to hold a `subscriptions/listen` stream
 * open, which hosts that cut long streams turn into an endless reconnect loop.
 */
export const SERVER_CAPABILITIES = { tools: { listChanged: false } } as const;

/**
 * A fresh server with `tools` registered over `deps`.
 *
 * @example
 * ```ts
 * const server = createMcpServer(TOOLS, { gw2, log });
 * ```
 */
export function createMcpServer(tools: readonly ToolDefinition[], deps: ToolDeps): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: SERVER_CAPABILITIES });
  for (const tool of tools) {
    server.registerTool(tool.name, {
      title: tool.title,
      description: tool.description,
      inputSchema: published(tool.inputSchema),
      outputSchema: published(tool.outputSchema),
      annotations: { ...tool.annotations },
    }, (input) => callTool(tool, input, deps));
  }
  return server;
}

/** Lean wrappers by schema, shared by every request's server (they memoise their JSON). */
const PUBLISHED = new WeakMap<z.ZodType, StandardSchemaWithJSON>();

function published(schema: z.ZodType): StandardSchemaWithJSON {
  let wrapper = PUBLISHED.get(schema);
  if (wrapper === undefined) {
    wrapper = leanSchema(schema);
    PUBLISHED.set(schema, wrapper);
  }
  return wrapper;
}

/**
 * Runs one tool on already-validated input and turns the outcome into an MCP result: the
 * structured result plus the same JSON as one compact text block, or `isError` with one
 * actionable text block and no structured content.
 */
export async function callTool(
  tool: ToolDefinition,
  input: unknown,
  deps: ToolDeps,
): Promise<CallToolResult> {
  const started = performance.now();
  try {
    const result = await tool.handle(input, deps);
    deps.log.debug("tool call", { tool: tool.name, ok: true, ms: elapsed(started) });
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    logFailure(deps, tool.name, error, elapsed(started));
    return { content: [{ type: "text", text: toolErrorText(error, tool.name) }], isError: true };
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

function logFailure(deps: ToolDeps, tool: string, error: unknown, ms: number): void {
  if (isGw2Failure(error)) {
    const reason = error.kind === "upstream" ? error.reason : undefined;
    deps.log.info("tool call", { tool, ok: false, failure: error.kind, reason, ms });
    return;
  }
  if (error instanceof MissingGw2KeyError) {
    deps.log.info("tool call", { tool, ok: false, failure: "missing_gw2_key", ms });
    return;
  }
  deps.log.error("tool call crashed", { tool, ok: false, error: describeError(error), ms });
}
