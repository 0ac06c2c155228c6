/**
 * The HTTP edge: one `Request -> Response` function serving the contract's surface. It owns
 * routing and the order of checks on the MCP paths; the guard, the body bound, the MCP endpoint
 * and the tools live in their own modules.
 *
 * | request | answer |
 * |---|---|
 * | `POST /mcp`, `POST /api/mcp` | Host/Origin -> 403, bearer -> 401, body > 1 MiB -> 413, then MCP |
 * | any other method on those paths | 405 (after the guard) |
 * | `GET` (or `HEAD`) `/healthz` | 200 `{"status":"ok"}`, no auth |
 * | anything else, `/.well-known/*` included | 404 |
 *
 * In the public mode (`PRIORY_AUTH=oauth`, an `auth` dependency) the MCP paths check the caller
 * with `src/auth/` instead of the static bearer (after the same Host/Origin check), and the OAuth
 * paths - the discovery documents, `/authorize`, `/token`, `/register`, `/revoke` - are routed to
 * it after the Host check, with bodies bounded to 16 KiB.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { MAX_AUTH_BODY_BYTES } from "../auth/body_limit.ts";
import type { PublicAuth } from "../auth/mod.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { describeError, type Logger } from "../log.ts";
import type { Foreground } from "../async/foreground.ts";
import { createMcpEndpoint, type RequestCaller } from "../mcp/endpoint.ts";
import type { CallLogOptions } from "../mcp/server.ts";
import type { NameIndex } from "../search/name_index.ts";
import { TOOLS } from "../tools/mod.ts";
import type { ToolDefinition, ToolServices } from "../tools/types.ts";
import { MAX_BODY_BYTES, readBoundedBody } from "./body.ts";
import { createGuard, createPlaceGuard, type GuardPolicy } from "./guard.ts";
import { textResponse } from "./responses.ts";

export { textResponse } from "./responses.ts";

/** The paths the MCP endpoint answers on (`/api/mcp` is the original deployment's path). */
export const MCP_PATHS: readonly string[] = ["/mcp", "/api/mcp"];

/**
 * The pathname of a request's (serialised) URL, as `new URL(url).pathname` gives it. A URL whose
 * whole path is one of {@linkcode MCP_PATHS} - no query, fragment, dot segment or escape, which
 * parsing would leave unchanged - is sliced out as it stands: the authority of a serialised URL
 * holds no `/`, so its first `/` starts the path. Parsing every request cost a warm call ~3 µs.
 */
export function pathnameOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const path = start === -1 ? undefined : url.slice(start);
  return path !== undefined && MCP_PATHS.includes(path) ? path : new URL(url).pathname;
}

/** What the edge needs from the rest of the process. */
export interface HandlerDeps {
  readonly log: Logger;
  /** The one upstream client of the process, shared by every request. */
  readonly gw2: Gw2Client;
  /** The item-name index of the process (`priory_item_search`). */
  readonly names?: NameIndex;
  /** The process's other services for the tools (the market sheet, ...). */
  readonly services?: ToolServices;
  /** The clock tool-call deadlines run on; defaults to the system clock. */
  readonly clock?: Clock;
  /** The guard's part of the configuration: token, allowed origins, allowed hosts. */
  readonly config: GuardPolicy;
  /** The tools to serve; defaults to the registry {@linkcode TOOLS}. */
  readonly tools?: readonly ToolDefinition[];
  /** Body bound of the MCP paths; defaults to {@linkcode MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /** How tool calls are logged; by default successes at debug. */
  readonly callLog?: CallLogOptions;
  /** The public mode (`PRIORY_AUTH=oauth`); absent: the token mode. */
  readonly auth?: PublicAuth;
  /** Tool calls in flight, which background work gives way to (`src/async/foreground.ts`). */
  readonly foreground?: Foreground;
}

/**
 * The process's request handler; `close()` aborts in-flight MCP exchanges on shutdown. `info` is
 * what `Deno.serve` says of the connection (the client's address, which the public mode's limits
 * per client address count by); tests may leave it out.
 */
export interface Handler {
  (request: Request, info?: Deno.ServeHandlerInfo): Promise<Response>;
  close(): Promise<void>;
}

/** The client address of a request when `Deno.serve` gives none (a test calling the handler). */
export const UNKNOWN_CLIENT = "unknown";

/** The client's IP address as `Deno.serve` saw the connection, or {@linkcode UNKNOWN_CLIENT}. */
export function clientAddressOf(info: Deno.ServeHandlerInfo | undefined): string {
  const remote = info?.remoteAddr;
  return remote !== undefined && "hostname" in remote ? remote.hostname : UNKNOWN_CLIENT;
}

/**
 * Builds the process's request handler. Create it once: it holds the MCP handler, which builds
 * a fresh MCP server per request.
 *
 * @example
 * ```ts
 * const handler = createHandler({ log, gw2, config });
 * Deno.serve({ port: config.port }, handler);
 * ```
 */
export function createHandler(deps: HandlerDeps): Handler {
  const maxBodyBytes = deps.maxBodyBytes ?? MAX_BODY_BYTES;
  const guard = createGuard(deps.config, deps.log);
  const auth = deps.auth;
  // Public mode: Host and Origin as in token mode on /mcp; Host only on the OAuth paths.
  const mcpPlace = createPlaceGuard(deps.config, deps.log, { origin: true });
  const authPlace = createPlaceGuard(deps.config, deps.log, { origin: false });
  const endpoint = createMcpEndpoint({
    gw2: deps.gw2,
    log: deps.log,
    ...(deps.names === undefined ? {} : { names: deps.names }),
    ...(deps.services === undefined ? {} : { services: deps.services }),
    ...(deps.clock === undefined ? {} : { clock: deps.clock }),
    tools: deps.tools ?? TOOLS,
    maxBodyBytes,
    ...(deps.callLog === undefined ? {} : { callLog: deps.callLog }),
    ...(deps.foreground === undefined ? {} : { foreground: deps.foreground }),
    // Public mode: every text the model reads says the key comes with the sign-in.
    ...(auth === undefined ? {} : { keyWording: "sign-in" }),
  });

  async function serveMcp(request: Request): Promise<Response> {
    let caller: RequestCaller | undefined;
    if (auth === undefined) {
      const refused = guard(request);
      if (refused !== undefined) return refused;
    } else {
      const misplaced = mcpPlace(request);
      if (misplaced !== undefined) return misplaced;
      const found = await auth.authenticate(request);
      if (found instanceof Response) return found;
      if (found.kind === "player") {
        const { player } = found;
        // Fair use is per player - the GW2 account behind the grant, so signing in again buys
        // no more: their own rate of calls, their own turn at the upstream budget.
        caller = {
          gw2Key: player.key,
          owner: player.owner,
          admitToolCalls: (calls) => auth.admitCalls(player.owner, calls),
          enterCall: (signal) => auth.enterCall(player.owner, signal),
          keyRejected: () => auth.keyRejected(player),
        };
      }
    }
    if (request.method !== "POST") {
      return textResponse(405, "Method not allowed: this MCP endpoint accepts POST only", {
        allow: "POST",
      });
    }
    const read = await readBoundedBody(request, maxBodyBytes);
    if (!read.ok) {
      return read.reason === "too_large"
        ? textResponse(413, `Payload too large: MCP requests are limited to ${maxBodyBytes} bytes`)
        : textResponse(400, "Bad request: the request body could not be read");
    }
    return await endpoint.handle(request, read.body, caller);
  }

  async function serveAuth(
    publicAuth: PublicAuth,
    request: Request,
    path: string,
    clientAddress: string,
  ) {
    const misplaced = authPlace(request);
    if (misplaced !== undefined) return misplaced;
    if (request.method !== "POST") {
      return await publicAuth.serve(request, path, undefined, clientAddress);
    }
    const read = await readBoundedBody(request, MAX_AUTH_BODY_BYTES);
    if (!read.ok) {
      return read.reason === "too_large"
        ? textResponse(413, `Payload too large: at most ${MAX_AUTH_BODY_BYTES} bytes here`)
        : textResponse(400, "Bad request: the request body could not be read");
    }
    return await publicAuth.serve(request, path, read.body, clientAddress);
  }

  async function handle(request: Request, info?: Deno.ServeHandlerInfo): Promise<Response> {
    const pathname = pathnameOf(request.url);
    if (MCP_PATHS.includes(pathname)) {
      const started = performance.now();
      try {
        const response = await serveMcp(request);
        deps.log.debug("mcp request", {
          status: response.status,
          ms: Math.round(performance.now() - started),
        });
        return response;
      } catch (error) {
        deps.log.error("mcp request crashed", { error: describeError(error) });
        return textResponse(500, "Internal error: the request could not be served");
      }
    }
    if (pathname === "/healthz" && (request.method === "GET" || request.method === "HEAD")) {
      return Response.json({ status: "ok" });
    }
    if (auth?.handles(pathname)) {
      try {
        return await serveAuth(auth, request, pathname, clientAddressOf(info));
      } catch (error) {
        deps.log.error("auth request crashed", { error: describeError(error) });
        return textResponse(500, "Internal error: the request could not be served");
      }
    }
    return textResponse(404, "Not found");
  }

  return Object.assign(handle, { close: () => endpoint.close() });
}
