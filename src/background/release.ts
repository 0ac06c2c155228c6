/**
 * Giving memory back after a burst of background work: a full garbage collection, which also
 * shrinks V8's young generation to what is live (a burst of work grows it, and V8 shrinks it on
 * its own only after a quiet while). The collection function comes from a new V8 context made
 * after `--expose-gc` is set at run time: Deno 2.9 honours that (as it does not heap-sizing
 * flags), Deno 2.5 does not, and there this is a no-op. Measured in docs/performance.md,
 * "Memory".
 *
 * @module
 */

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** A full collection, or nothing where the runtime offers none. */
export type Collect = () => void;

/** The runtime's full collection, if it lets the code have one; undefined otherwise. */
export function runtimeCollect(): Collect | undefined {
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
    return typeof gc === "function" ? () => void gc() : undefined;
  } catch {
    return undefined;
  }
}
