/**
 * Live-heap figures for tests that bound what a structure keeps: a full garbage collection where
 * the runtime lets a test switch one on (Deno 2.9; 2.5 ignores `--expose-gc` set at run time).
 *
 * @module
 */

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Forces a full garbage collection; false where the runtime does not allow it. */
export function collectGarbage(): boolean {
  setFlagsFromString("--expose-gc");
  try {
    const gc: unknown = runInNewContext("gc");
    if (typeof gc !== "function") return false;
    gc();
    return true;
  } catch {
    return false;
  }
}

/**
 * The bytes the heap holds after `build` ran than before it, garbage collected on both sides,
 * what `build` returned being still reachable; undefined where a collection cannot be forced.
 */
export function retainedBy(build: () => unknown): number | undefined {
  if (!collectGarbage()) return undefined;
  const before = Deno.memoryUsage().heapUsed;
  const holder = [build()];
  collectGarbage();
  const after = Deno.memoryUsage().heapUsed;
  holder.length = 0;
  return after - before;
}
