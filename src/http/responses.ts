/**
 * Small response builders shared by the HTTP edge.
 *
 * @module
 */

/**
 * A short plain-text answer.
 *
 * @example
 * ```ts
 * textResponse(404, "Not found");
 * ```
 */
export function textResponse(status: number, body: string, headers?: HeadersInit): Response {
  const merged = new Headers(headers);
  merged.set("content-type", "text/plain; charset=utf-8");
  return new Response(`${body}\n`, { status, headers: merged });
}
