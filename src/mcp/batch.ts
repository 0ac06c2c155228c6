/**
 * The bound on a JSON-RPC batch. The 2025-era revisions accept a batch (an array of messages in
 * one POST), and each of its tool calls runs with its own deadline against the shared upstream
 * budget: unbounded, one 1 MiB POST could carry thousands. A batch of more than
 * {@linkcode MAX_BATCH_REQUESTS} is refused whole, before any of it runs. (The 2026-07-28
 * revision refuses batches altogether; the SDK answers those.)
 *
 * @module
 */

/**
 * The most messages a JSON-RPC batch may carry (the contract's limit). Every element counts: in
 * JSON-RPC 2.0 a notification is a Request object without an `id`.
 */
export const MAX_BATCH_REQUESTS = 10;

/**
 * Whether `message` (a parsed body) is a batch over {@linkcode MAX_BATCH_REQUESTS}: one
 * `Array.isArray` on the body already parsed, nothing more on the warm path.
 */
export function isOversizedBatch(message: unknown): message is readonly unknown[] {
  return Array.isArray(message) && message.length > MAX_BATCH_REQUESTS;
}

/**
 * The answer refusing a batch of `size` messages, over {@linkcode MAX_BATCH_REQUESTS}. It follows
 * the SDK's own refusal of an oversized batch: HTTP 400 and a JSON-RPC error -32600 with a `null`
 * id (one error for the whole batch, as JSON-RPC answers an invalid batch), naming the limit.
 *
 * @example
 * ```ts
 * if (isOversizedBatch(body)) return batchRefused(body.length);
 * ```
 */
export function batchRefused(size: number): Response {
  return Response.json({
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32600,
      message:
        `Invalid Request: a batch carries at most ${MAX_BATCH_REQUESTS} requests, this one ${size}; none was run. Send them in batches of ${MAX_BATCH_REQUESTS} or fewer.`,
    },
  }, { status: 400 });
}
