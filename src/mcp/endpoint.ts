/**
 * The MCP endpoint behind the guard: the SDK's `createMcpHandler`, created once, with a factory
 * that builds a fresh server per request (reuse fails). It serves protocol 2026-07-28 and the
 * 2025-era revisions on the same path, in the SDK's `auto` response mode (JSON, upgraded to SSE
 * only when a handler emits a notification before its result). Before the SDK sees a request, a
 * JSON-RPC batch over the contract's limit is refused whole (`batch.ts`), and a 2026
 * `subscriptions/listen` is refused (the tool list never changes).
 *
 * @module
 */

import {
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  type McpRequestContext,
} from "@modelcontextprotocol/server";
import type { Clock } from "../async/clock.ts";
import type { Foreground } from "../async/foreground.ts";
import type { Gw2Client } from "../gw2/types.ts";
import type { Logger } from "../log.ts";
import type { NameIndex } from "../search/name_index.ts";
import type { ToolDefinition, ToolServices } from "../tools/types.ts";
import { batchRefused, isOversizedBatch } from "./batch.ts";
import type { KeyWording } from "./key_wording.ts";
import {
  ALL_SURFACES,
  type CallLogOptions,
  createMcpServer,
  type ServerDeps,
  type ServerSurfaces,
} from "./server.ts";
import { type LoadedSurfaces, loadSurfaces } from "./surfaces.ts";

/** The request header carrying the player's GW2 API key. */
export const GW2_KEY_HEADER = "x-gw2-key";

/** What the endpoint needs. */
export interface McpEndpointDeps {
  readonly gw2: Gw2Client;
  readonly log: Logger;
  /** The item-name index, handed to the tools. */
  readonly names?: NameIndex;
  /** The process's other services, handed to the tools as they are. */
  readonly services?: ToolServices;
  /** The clock tool-call deadlines run on; defaults to the system clock. */
  readonly clock?: Clock;
  /** The tools to serve. */
  readonly tools: readonly ToolDefinition[];
  /** Bound the SDK applies to bodies it reads itself; the HTTP edge enforces it first. */
  readonly maxBodyBytes: number;
  /** How tool calls are logged (`deno task dev`: each at info, with its upstream cost). */
  readonly callLog?: CallLogOptions;
  /** Where the instructions and tool texts say keys come from. @default "header" */
  readonly keyWording?: KeyWording;
  /** Tool calls in flight, which background work gives way to. */
  readonly foreground?: Foreground;
}

/**
 * Who a request is from, when the HTTP edge knows more than its headers say (the public mode):
 * a signed-in player, whose key comes with the sign-in instead of `X-GW2-Key`.
 */
export interface RequestCaller {
  /** The player's GW2 key, bound to their sign-in. Never logged. */
  readonly gw2Key: string;
  /**
   * Whose calls these are (the player: their GW2 account's pseudonym), for the fair share of the
   * upstream budget.
   */
  readonly owner: string;
  /**
   * Takes `calls` tool calls from the player's rate: 0 when admitted, else the milliseconds to
   * wait (the request is then answered 429 with `Retry-After`, and none of it runs).
   */
  admitToolCalls(calls: number): number;
  /**
   * Waits for one of the player's call slots (a few of their calls run at once); the returned
   * function gives it back. Rejects when `signal` (the call's deadline) aborts first.
   */
  enterCall(signal: AbortSignal): Promise<() => void>;
  /**
   * Called when GW2 rejected the sign-in's key during a call: the sign-in is ended, so the
   * player's app signs in again (with a current key) on its next request.
   */
  keyRejected(): Promise<void>;
}

/** One MCP request already past the guard, with its body read. */
export interface McpEndpoint {
  /**
   * Serves a POST whose body (at most the bound) has been read into `body`; `caller` is the
   * signed-in player in the public mode (absent: the key is read from `X-GW2-Key`).
   */
  handle(
    request: Request,
    body: Uint8Array<ArrayBuffer>,
    caller?: RequestCaller,
  ): Promise<Response>;
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
  // The tools and surfaces each forwarded request needs; a request the SDK hands back as another
  // object (none today) simply gets everything.
  const needed = new WeakMap<Request, Needs>();
  const callers = new WeakMap<Request, RequestCaller>();
  const factory = (context: McpRequestContext) => {
    const request = context.requestInfo;
    const needs = request === undefined ? undefined : needed.get(request);
    const caller = request === undefined ? undefined : callers.get(request);
    const build = (surfaces: LoadedSurfaces) =>
      createMcpServer(needs?.tools ?? deps.tools, toolDeps(deps, request, caller), surfaces);
    // A tool call, the warm path, needs neither surface: its server is built at once.
    const surfaces = needs?.surfaces ?? ALL_SURFACES;
    return surfaces.views || surfaces.prompts ? loadSurfaces(surfaces).then(build) : build({});
  };
  const sdk: McpHttpHandler = createMcpHandler(factory, {
    responseMode: "auto",
    maxRequestBodySize: deps.maxBodyBytes,
    // Protocol-level refusals (bad headers, unsupported revision...); messages carry no secrets.
    onerror: (error) => deps.log.info("mcp protocol refusal", { error: error.message }),
  });
  return {
    async handle(request, body, caller) {
      const parsed = parseJson(body);
      // A batch over the limit is refused whole, before the SDK runs any of it.
      if (parsed.ok && isOversizedBatch(parsed.value)) {
        deps.log.info("mcp batch refused", { messages: parsed.value.length });
        return batchRefused(parsed.value.length);
      }
      // A player past their rate of tool calls: refused whole, before anything runs.
      if (caller !== undefined && parsed.ok) {
        const calls = countToolCalls(parsed.value);
        const waitMs = calls === 0 ? 0 : caller.admitToolCalls(calls);
        if (waitMs > 0) {
          deps.log.info("mcp calls refused", { reason: "player_rate", calls });
          return callsRefused(parsed.value, waitMs);
        }
      }
      // Given a parsed body the SDK never reads one, so the original request goes on as it is
      // (its body consumed, which nothing reads again). Only a body that did not parse needs a
      // copy carrying the bytes, for the SDK to answer the malformed JSON itself. Copying every
      // request cost a warm call ~10 µs (its headers go through WebIDL conversion). The SDK's
      // 2025 leg tears its exchange down when `request.signal` aborts, which (`deno.json`'s
      // "no-legacy-abort") happens only when the client goes away before its answer: that only
      // loses it the answer (a tool call cannot be cancelled). Deno.serve's legacy abort, on
      // every delivered response too, printed a plain-text notice into the JSON log.
      const forward = parsed.ok ? request : new Request(request.url, {
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
      if (parsed.ok) {
        needed.set(forward, {
          tools: toolsFor(parsed.value, deps.tools),
          surfaces: surfacesFor(parsed.value),
        });
      }
      if (caller !== undefined) callers.set(forward, caller);
      return sdk.fetch(forward, parsed.ok ? { parsedBody: parsed.value } : undefined);
    },
    close: () => sdk.close(),
  };
}

/**
 * Dependencies of one request's server: the shared client, logger and clock plus its key - the
 * signed-in player's (whose `X-GW2-Key` is ignored), else the header's.
 */
function toolDeps(
  deps: McpEndpointDeps,
  request: Request | undefined,
  caller: RequestCaller | undefined,
): ServerDeps {
  const shared = {
    ...deps.services,
    gw2: deps.gw2,
    log: deps.log,
    ...(deps.names === undefined ? {} : { names: deps.names }),
    ...(deps.clock === undefined ? {} : { clock: deps.clock }),
    ...(deps.callLog === undefined ? {} : { callLog: deps.callLog }),
    ...(deps.keyWording === undefined ? {} : { keyWording: deps.keyWording }),
    ...(deps.foreground === undefined ? {} : { foreground: deps.foreground }),
  };
  if (caller !== undefined) {
    return {
      ...shared,
      gw2Key: caller.gw2Key,
      owner: caller.owner,
      keySource: "sign-in",
      enterCall: (signal) => caller.enterCall(signal),
      keyRejected: () => caller.keyRejected(),
    };
  }
  const key = request?.headers.get(GW2_KEY_HEADER)?.trim();
  return { ...shared, ...(key === undefined || key === "" ? {} : { gw2Key: key }) };
}

/** How many `tools/call` requests a message (or batch) holds. */
export function countToolCalls(message: unknown): number {
  const messages: readonly unknown[] = Array.isArray(message) ? message : [message];
  return messages.filter((item) =>
    typeof item === "object" && item !== null && "method" in item && item.method === "tools/call"
  ).length;
}

/**
 * The 429 for a player past their rate: `Retry-After` in whole seconds, and a JSON-RPC error the
 * agent can read (for the request's id when it is one request).
 */
function callsRefused(message: unknown, waitMs: number): Response {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const id = typeof message === "object" && message !== null && !Array.isArray(message) &&
      "id" in message && (typeof message.id === "string" || typeof message.id === "number")
    ? message.id
    : null;
  return Response.json({
    jsonrpc: "2.0",
    id,
    error: {
      code: -32000,
      message:
        `Rate limited: this server allows each player a limited number of tool calls per minute, and yours are used up. Retry in ${seconds} s, and batch ids into fewer calls where a tool takes a list.`,
    },
  }, { status: 429, headers: { "retry-after": String(seconds) } });
}

/**
 * The tools a request needs registered: for one `tools/call` of a known tool, that tool alone
 * (registering every tool costs each warm call a few microseconds per tool); for anything else -
 * `tools/list`, a batch, an unknown name, whose error the SDK words from its registry - every
 * tool.
 */
export function toolsFor(
  message: unknown,
  tools: readonly ToolDefinition[],
): readonly ToolDefinition[] {
  if (
    typeof message !== "object" || message === null || !("method" in message) ||
    message.method !== "tools/call" || !("params" in message)
  ) {
    return tools;
  }
  const { params } = message;
  const name = typeof params === "object" && params !== null && "name" in params
    ? params.name
    : undefined;
  const called = tools.filter((tool) => tool.name === name);
  return called.length === 1 ? called : tools;
}

/** What one request's server registers. */
interface Needs {
  readonly tools: readonly ToolDefinition[];
  readonly surfaces: ServerSurfaces;
}

const NO_SURFACES: ServerSurfaces = { views: false, prompts: false };
const VIEWS_ONLY: ServerSurfaces = { views: true, prompts: false };
const PROMPTS_ONLY: ServerSurfaces = { views: false, prompts: true };

/**
 * The surfaces besides tools a request needs registered: the views for `resources/*`, the
 * prompts for `prompts/*` and `completion/complete`, everything for a batch (or anything not a
 * single message), and nothing for the rest - `initialize` and `server/discover` advertise the
 * capabilities without them, and a tool call, the warm path, pays for neither.
 */
export function surfacesFor(message: unknown): ServerSurfaces {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return ALL_SURFACES;
  }
  const method = "method" in message && typeof message.method === "string" ? message.method : "";
  if (method.startsWith("resources/")) return VIEWS_ONLY;
  if (method.startsWith("prompts/") || method === "completion/complete") return PROMPTS_ONLY;
  return NO_SURFACES;
}

type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const DECODER = new TextDecoder();

function parseJson(body: Uint8Array<ArrayBuffer>): Parsed {
  try {
    return { ok: true, value: JSON.parse(DECODER.decode(body)) };
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
