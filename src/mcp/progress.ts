/**
 * Progress notifications for a long tool call. When a `tools/call` request carries
 * `_meta.progressToken`, the tool gets a {@linkcode ProgressReporter}: each report becomes one
 * `notifications/progress` for that token, numbered one higher than the last, sent in order.
 * The server flushes them before it returns the result, so none arrives after the answer. In
 * the SDK's `auto` response mode the first notification turns the answer into an SSE stream;
 * a call without a token sends nothing and is answered with plain JSON.
 *
 * @module
 */

import type { Notification, ProgressToken } from "@modelcontextprotocol/server";
import { describeError, type Logger } from "../log.ts";
import type { ProgressReporter } from "../tools/types.ts";

/** A reporter the server can wait on. */
export interface ProgressChannel extends ProgressReporter {
  /** Resolves once every report so far has been handed to the transport (or dropped). */
  flush(): Promise<void>;
  /**
   * Drops every later report. A call answered at its deadline may leave its handler running,
   * and a notification after the result would be lost (or refused by a closed stream).
   */
  close(): void;
}

/**
 * A reporter sending to `token` through `notify` (the SDK's `ctx.mcpReq.notify`). A failed
 * send is logged at debug level and dropped: progress is a courtesy, never the call's failure.
 *
 * @example
 * ```ts
 * const progress = createProgressChannel(token, (n) => ctx.mcpReq.notify(n), log);
 * progress.report("Holdings read");
 * await progress.flush();
 * ```
 */
export function createProgressChannel(
  token: ProgressToken,
  notify: (notification: Notification) => Promise<void>,
  log: Logger,
): ProgressChannel {
  let sent = 0;
  let closed = false;
  let queue = Promise.resolve();
  return {
    report(message) {
      if (closed) return;
      sent += 1;
      const params = { progressToken: token, progress: sent, message };
      queue = queue
        .then(() => notify({ method: "notifications/progress", params }))
        .catch((error: unknown) => {
          log.debug("progress notification dropped", { error: describeError(error) });
        });
    },
    flush: () => queue,
    close: () => {
      closed = true;
    },
  };
}
