/**
 * Builds the MCP server for one request: a fresh `McpServer` with every tool definition
 * registered. A server instance serves exactly one request (the SDK refuses reuse), so this runs
 * per request; it is cheap (no I/O, schemas are converted lazily by the SDK). Each tool call
 * gets its deadline here, in one place (see {@linkcode callTool}).
 *
 * @module
 */

import {
  type CallToolResult,
  McpServer,
  type Notification,
  type ProgressToken,
  type ServerOptions,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import type { z } from "zod";
import { type Clock, systemClock } from "../async/clock.ts";
import type { Foreground } from "../async/foreground.ts";
import {
  CALL_DEADLINE_MS,
  deadlineAfter,
  DeadlineExceededError,
  startDeadline,
  unlessAborted,
  withinDeadline,
} from "../async/deadline.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { describeError, type Logger } from "../log.ts";
import type { CallCost, CallMeter } from "../metrics.ts";
import { MAX_IDS } from "../tools/inputs.ts";
import type { ToolDefinition, ToolDeps } from "../tools/types.ts";
import { viewMeta } from "../views/uris.ts";
import { classifyFailure, type Failure, type KeySource } from "./errors.ts";
import { type KeyWording, signedInSchema, signedInText } from "./key_wording.ts";
import { createProgressChannel } from "./progress.ts";
import type { LoadedSurfaces } from "./surfaces.ts";
import { leanSchema } from "./schema.ts";

/** How the server introduces itself in `initialize` / `server/discover`. */
export const SERVER_INFO = { name: "priory-mcp", version: "0.1.0" } as const;

/**
 * Capabilities advertised to clients. `listChanged: false`: the tool, resource (the views) and
 * prompt lists never change at run time, and advertising it would invite 2026 clients to hold a
 * `subscriptions/listen` stream open, which hosts that cut long streams turn into an endless
 * reconnect loop. `completions`: prompt arguments complete legendary and item names.
 */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  completions: {},
} as const;

/**
 * Cache hints of the 2026-07-28 cacheable results we answer. The tool, prompt and resource lists,
 * the view documents and the discovery answer are the same for every caller and change only when
 * a new version is deployed, so clients and shared caches may keep them an hour (the SDK's
 * default is `ttlMs: 0, private`).
 */
export const CACHE_HINTS = {
  "tools/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "prompts/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "resources/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "resources/templates/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "resources/read": { ttlMs: 3_600_000, cacheScope: "public" },
  "server/discover": { ttlMs: 3_600_000, cacheScope: "public" },
} as const satisfies ServerOptions["cacheHints"];

/**
 * The workflow, for the agent: sent in `initialize` (2025) and `server/discover` (2026) as
 * `instructions`. Kept within 150 tokens: every connection pays for it.
 */
export const SERVER_INSTRUCTIONS = [
  "Guild Wars 2 data. Find item ids by name or chat link with priory_item_search",
  "(legendaries: priory_legendaries);",
  "then read items (gw2_items), Trading Post prices (gw2_prices, copper) or a priced",
  `buy-or-craft tree (priory_recipe_tree). Batch ids: up to ${MAX_IDS} per call.`,
  "Account tools (priory_account\u2026) read the player's GW2 API key from the X-GW2-Key header",
  "of this server's client configuration; never ask for the key in chat.",
].join(" ");

/**
 * The instructions in the public mode, where players sign in: the same workflow, and the key
 * that came with the sign-in instead of a header no host there can send.
 */
export const SIGNED_IN_INSTRUCTIONS = [
  SERVER_INSTRUCTIONS.slice(0, SERVER_INSTRUCTIONS.indexOf(" Account tools")),
  "Account tools (priory_account\u2026) use the GW2 API key the player gave when signing in to this",
  "server; if one says the key was rejected or lacks a permission, the player signs in again",
  "with a suitable key. Never ask for the key in chat.",
].join(" ");

/**
 * How tool calls are logged. Each call is one `tool call` line: a failure at its own level (info,
 * warn for a deadline, error for a crash), a success at `successLevel`. `deno task dev` logs
 * successes at info with each call's upstream cost (`meter`); `start` keeps them at debug.
 */
export interface CallLogOptions {
  /** Level of a successful call's line. @default "debug" */
  readonly successLevel?: "debug" | "info";
  /** Measures each call's upstream requests and cache hits for its line. */
  readonly meter?: CallMeter;
}

/**
 * What one request's server needs: the {@linkcode ToolDeps} of its calls, except that `gw2` is
 * the process's one client (each call reads through a view of it bound to the call's deadline)
 * and `signal` is made per call; plus the clock the deadlines run on and how calls are logged.
 */
export interface ServerDeps extends Omit<ToolDeps, "gw2" | "signal"> {
  readonly gw2: Gw2Client;
  /**
   * Whom the calls are for (a signed-in player's pseudonym): their reads get a fair share of the
   * upstream budget when players wait for it together.
   */
  readonly owner?: string;
  /** Where `gw2Key` came from: the error texts tell a signed-in player to sign in again. */
  readonly keySource?: KeySource;
  /**
   * Where the instructions and tool texts say keys come from: the deployment's mode, the same
   * for every caller (`key_wording.ts`). @default "header"
   */
  readonly keyWording?: KeyWording;
  /**
   * Waits for the caller's turn to run a call (a signed-in player runs only a few at once); the
   * wait counts against the call's deadline. Absent: every call runs at once.
   */
  readonly enterCall?: (signal: AbortSignal) => Promise<() => void>;
  /**
   * Told when GW2 rejected the caller's key during a call (a signed-in player's: their sign-in
   * is ended). Its failure is logged, never the call's.
   */
  readonly keyRejected?: () => Promise<void>;
  /** The clock call deadlines run on. @default systemClock */
  readonly clock?: Clock;
  /** How each call is logged. @default successes at debug, no upstream cost */
  readonly callLog?: CallLogOptions;
  /** Marked busy while each call runs: background work gives way (`src/async/foreground.ts`). */
  readonly foreground?: Foreground;
}

/**
 * A call's work - its GW2 reads and its `signal` - stops this long before the call's deadline,
 * so what it has (an expired cache entry, an error naming the cause) is still delivered in time.
 */
export const WORK_MARGIN_MS = 1_000;
/**
 * A call answers this long before its deadline whatever its handler is doing (a timeout error if
 * the handler has not finished), leaving time for the answer to reach the client.
 */
export const ANSWER_MARGIN_MS = 500;

/**
 * Which surfaces besides tools a request's server registers: the views (`resources/*`) and the
 * prompts (`prompts/*`, `completion/complete`). The capabilities are advertised either way; a
 * request that uses neither (a tool call) is spared registering them.
 */
export interface ServerSurfaces {
  readonly views: boolean;
  readonly prompts: boolean;
}

/** Every surface registered. */
export const ALL_SURFACES: ServerSurfaces = { views: true, prompts: true };

/**
 * A fresh server with `tools` registered over `deps`, and the views and prompts when `surfaces`
 * carries them (`loadSurfaces`, which imports their modules on first use).
 *
 * @example
 * ```ts
 * const server = createMcpServer(TOOLS, { gw2, log });
 * ```
 */
export function createMcpServer(
  tools: readonly ToolDefinition[],
  deps: ServerDeps,
  surfaces: LoadedSurfaces = {},
): McpServer {
  const signedIn = deps.keyWording === "sign-in";
  const server = new McpServer(SERVER_INFO, {
    capabilities: SERVER_CAPABILITIES,
    instructions: signedIn ? SIGNED_IN_INSTRUCTIONS : SERVER_INSTRUCTIONS,
    cacheHints: CACHE_HINTS,
  });
  surfaces.views?.(server);
  surfaces.prompts?.(server, { names: deps.names, signedIn });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      signedIn ? signedInRegistration(tool) : registration(tool),
      (input, ctx) => serveToolCall(tool, input, deps, ctx.mcpReq),
    );
  }
  return server;
}

/** What `registerTool` is given for a tool, built once per tool and shared by every request. */
type Registration = {
  readonly title: string;
  readonly description: string;
  readonly inputSchema: StandardSchemaWithJSON;
  readonly outputSchema: StandardSchemaWithJSON;
  readonly annotations: ToolDefinition["annotations"];
  /** The tool's view link (`_meta.ui`), when it has a view. */
  readonly _meta?: Record<string, unknown>;
};

const REGISTRATIONS = new WeakMap<ToolDefinition, Registration>();

function registration(tool: ToolDefinition): Registration {
  let config = REGISTRATIONS.get(tool);
  if (config === undefined) {
    config = Object.freeze({
      title: tool.title,
      description: tool.description,
      inputSchema: published(tool.inputSchema),
      outputSchema: published(tool.outputSchema),
      annotations: Object.freeze({ ...tool.annotations }),
      ...(tool.view === undefined ? {} : { _meta: viewMeta(tool.view) }),
    });
    REGISTRATIONS.set(tool, config);
  }
  return config;
}

const SIGNED_IN_REGISTRATIONS = new WeakMap<ToolDefinition, Registration>();

/** {@linkcode registration} in the public mode's words (`key_wording.ts`). */
function signedInRegistration(tool: ToolDefinition): Registration {
  let config = SIGNED_IN_REGISTRATIONS.get(tool);
  if (config === undefined) {
    const plain = registration(tool);
    config = Object.freeze({
      ...plain,
      description: signedInText(plain.description),
      inputSchema: signedInSchema(plain.inputSchema),
    });
    SIGNED_IN_REGISTRATIONS.set(tool, config);
  }
  return config;
}

/** What {@linkcode serveToolCall} needs of the SDK's request context (`ctx.mcpReq`). */
export interface ToolCallRequest {
  readonly _meta?: { readonly progressToken?: ProgressToken | undefined };
  notify(notification: Notification): Promise<void>;
}

/**
 * One `tools/call` as the SDK hands it over: {@linkcode callTool}, with a progress reporter in
 * the tool's dependencies when the client sent a `progressToken`, and every notification
 * delivered before the result is returned (one sent after it would be lost; a handler still
 * running after a timeout answer reports into the void).
 *
 * @example
 * ```ts
 * server.registerTool(name, config, (input, ctx) => serveToolCall(tool, input, deps, ctx.mcpReq));
 * ```
 */
export async function serveToolCall(
  tool: ToolDefinition,
  input: unknown,
  deps: ServerDeps,
  request: ToolCallRequest,
): Promise<CallToolResult> {
  const token = request._meta?.progressToken;
  if (token === undefined) return await callTool(tool, input, deps);
  const progress = createProgressChannel(token, (note) => request.notify(note), deps.log);
  const result = await callTool(tool, input, { ...deps, progress });
  progress.close();
  await progress.flush();
  return result;
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
 *
 * The call's deadline is made here: `tool.deadlineMs` (default {@linkcode CALL_DEADLINE_MS}).
 * The handler's GW2 reads and its `signal` stop {@linkcode WORK_MARGIN_MS} before it, and the
 * call answers {@linkcode ANSWER_MARGIN_MS} before it even if the handler has not settled.
 */
export async function callTool(
  tool: ToolDefinition,
  input: unknown,
  deps: ServerDeps,
): Promise<CallToolResult> {
  const started = performance.now();
  const measured = deps.callLog?.meter?.start();
  const {
    clock = systemClock,
    gw2,
    callLog,
    owner,
    keySource,
    keyWording: _wording,
    enterCall,
    keyRejected,
    foreground,
    ...shared
  } = deps;
  // From the start: the background's slices and reads wait while the call runs.
  const busy = foreground?.enter();
  const budgetMs = tool.deadlineMs ?? CALL_DEADLINE_MS;
  using work = startDeadline(clock, budgetMs - WORK_MARGIN_MS, owner);
  using answerBy = deadlineAfter(clock, work, WORK_MARGIN_MS - ANSWER_MARGIN_MS);
  const toolDeps: ToolDeps = { ...shared, gw2, clock, signal: work.signal };
  let leave: (() => void) | undefined;
  try {
    leave = await enterCall?.(work.signal).catch(() => {
      throw new DeadlineExceededError(budgetMs);
    });
    // Every GW2 read of the handler, however deep, ends by the work's deadline.
    const handled = await unlessAborted(
      withinDeadline(work, () => tool.handle(input, toolDeps)),
      answerBy.signal,
    );
    if (handled === undefined) throw new DeadlineExceededError(budgetMs);
    const result = handled.value;
    deps.log[callLog?.successLevel ?? "debug"]("tool call", {
      tool: tool.name,
      ok: true,
      ms: elapsed(started),
      ...costFields(measured?.()),
    });
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    const failure = classifyFailure(error, {
      ...(tool.errorHints === undefined ? {} : { hints: tool.errorHints }),
      ...(keySource === undefined ? {} : { keySource }),
    });
    logFailure(deps.log, tool.name, failure, error, {
      ms: elapsed(started),
      ...costFields(measured?.()),
    });
    if (keyRejected !== undefined && failure.kind === "key_rejected") {
      await keyRejected().catch((ending: unknown) =>
        deps.log.warn("sign-in not ended after its key was rejected", {
          error: describeError(ending),
        })
      );
    }
    return { content: [{ type: "text", text: failure.text }], isError: true };
  } finally {
    leave?.();
    busy?.();
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** A call's upstream cost as log fields: `upstream`, `hits`, and `overlapped` when it did. */
function costFields(cost: CallCost | undefined): Record<string, number | boolean> {
  if (cost === undefined) return {};
  const { upstream, hits, overlapped } = cost;
  return overlapped ? { upstream, hits, overlapped } : { upstream, hits };
}

/** One log line for a failed call, at its failure's level; a crash names its error. */
function logFailure(
  log: Logger,
  tool: string,
  failure: Failure,
  error: unknown,
  measured: { readonly ms: number },
): void {
  const crashed = failure.level === "error";
  log[failure.level](crashed ? "tool call crashed" : "tool call", {
    tool,
    ok: false,
    ...(crashed ? { error: describeError(error) } : { failure: failure.kind }),
    ...(failure.reason === undefined ? {} : { reason: failure.reason }),
    ...measured,
  });
}
