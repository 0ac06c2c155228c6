/**
 * The HTTP edge: one `Request → Response` function serving the contract's surface. It owns
 * routing only; the guard, the MCP endpoint and the tools live in their own modules.
 *
 * @module
 */

import type { Logger } from "../log.ts";

/** What the edge needs from the rest of the process. */
export interface HandlerDeps {
  readonly log: Logger;
}

/** A web-standard request handler. */
export type Handler = (request: Request) => Promise<Response>;

/**
 * Builds the process's request handler.
 *
 * @example
 * ```ts
 * const handler = createHandler({ log: silentLogger });
 * const response = await handler(new Request("http://localhost/healthz"));
 * ```
 */
export function createHandler(_deps: HandlerDeps): Handler {
  return (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/healthz" && (request.method === "GET" || request.method === "HEAD")) {
      return Promise.resolve(Response.json({ status: "ok" }));
    }
    return Promise.resolve(textResponse(404, "Not found"));
  };
}

/** A short plain-text answer. */
export function textResponse(status: number, body: string, headers?: HeadersInit): Response {
  const merged = new Headers(headers);
  merged.set("content-type", "text/plain; charset=utf-8");
  return new Response(`${body}\n`, { status, headers: merged });
}
