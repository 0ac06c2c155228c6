/**
 * The MCP endpoint behind the guard: the SDK's `createMcpHandler`, created once, with a factory
 * that builds a fresh server per request (reuse fails). It serves protocol 2026-07-28 and the
 * 2025-era revisions on the same path, in the SDK's `auto` response mode (JSON, upgraded to SSE
 * only when a handler emits a notification before its result).
 *
 * @module
 */

import {
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  type McpRequestContext,
} from "@modelcontextprotocol/server";
import type { Clock } from "../clock.ts";
import type { BoundableGw2Client } from "../gw2/types.ts";
import type { Logger } from "../log.ts";
import type { NameIndex } from "../search/name_index.ts";
import type { ToolDefinition } from "../tools/types.ts";
import { createMcpServer, type ServerDeps } from "./server.ts";

/** The request header carrying the player's GW2 API key. */
export const GW2_KEY_HEADER = "x-gw2-key";

/** What the endpoint needs. */
export interface McpEndpointDeps {
  readonly gw2: BoundableGw2Client;
  readonly log: Logger;
  /** The item-name index, handed to the tools. */
  readonly names?: NameIndex;
  /** The clock tool-call deadlines run on; defaults to the system clock. */
  readonly clock?: Clock;
  /** The tools to serve. */
  readonly tools: readonly ToolDefinition[];
  /** Bound the SDK applies to bodies it reads itself; the HTTP edge enforces it first. */
  readonly maxBodyBytes: number;
}

/** One MCP request already past the guard, with its body read. */
export interface McpEndpoint {
  /** Serves a POST whose body (at most the bound) has been read into `body`. */
  handle(request: Request, body: Uint8Array<ArrayBuffer>): Promise<Response>;
  /** Aborts in-flight 2026 exchanges; for shutdown. */
  close(): Promise<void>;
}

/**
 * Creates the endpoint (once per process).
 *
 * @example
 * ```ts
 * const endpoint = createMcpEndpoint({ gw2, log, tools: TOOLS, maxBodyBytes: 1 << 20 });
 * ```
 */
export function createMcpEndpoint(deps: McpEndpointDeps): McpEndpoint {
  const factory = (context: McpRequestContext) =>
    createMcpServer(deps.tools, toolDeps(deps, context.requestInfo));
  const sdk: McpHttpHandler = createMcpHandler(factory, {
    responseMode: "auto",
    maxRequestBodySize: deps.maxBodyBytes,
    // Protocol-level refusals (bad headers, unsupported revision…); messages carry no secrets.
    onerror: (error) => deps.log.info("mcp protocol refusal", { error: error.message }),
  });
  return {
    async handle(request, body) {
      const parsed = parseJson(body);
      // A copy of the request with the bytes already read (the original body is consumed).
      // `request.signal` is not forwarded: under Deno.serve's legacy abort behaviour (Deno 2.5,
      // and 2.9 by default) it also aborts when a response completes, and a tool call cannot be
      // cancelled anyway; a vanished client only loses its answer.
      const forward = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: body.byteLength === 0 ? null : body,
      });
      if (
        parsed.ok && isListenRequest(parsed.value) &&
        !(await isLegacyRequest(forward, parsed.value))
      ) {
        return listenRefused(parsed.value);
      }
      return sdk.fetch(forward, parsed.ok ? { parsedBody: parsed.value } : undefined);
    },
    close: () => sdk.close(),
  };
}

/** Dependencies of one request's server: the shared client, logger and clock plus its key. */
function toolDeps(deps: McpEndpointDeps, request: Request | undefined): ServerDeps {
  const key = request?.headers.get(GW2_KEY_HEADER)?.trim();
  return {
    gw2: deps.gw2,
    log: deps.log,
    ...(deps.names === undefined ? {} : { names: deps.names }),
    ...(deps.clock === undefined ? {} : { clock: deps.clock }),
    ...(key === undefined || key === "" ? {} : { gw2Key: key }),
  };
}

type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

function parseJson(body: Uint8Array<ArrayBuffer>): Parsed {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(body)) };
  } catch {
    // The SDK answers malformed JSON itself (400, -32700).
    return { ok: false };
  }
}

function isListenRequest(message: unknown): message is { id?: unknown } {
  return typeof message === "object" && message !== null && !Array.isArray(message) &&
    "method" in message && message.method === "subscriptions/listen";
}

/**
 * `subscriptions/listen` (2026) is refused as an unknown method: this server's tool list never
 * changes, so a listen stream would carry nothing but keep-alives, and hosts that cut long-held
 * streams make clients reopen it forever.
 */
function listenRefused(message: { id?: unknown }): Response {
  const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
  return Response.json({
    jsonrpc: "2.0",
    id,
    error: {
      code: -32601,
      message:
        "Method not found: subscriptions/listen is not offered; this server's tool list never changes",
    },
  }, { status: 404 });
}
