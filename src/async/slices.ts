/**
 * Long CPU work in slices: a computation written as a generator that `yield`s at safe points
 * (between entries, between words) is run a slice at a time, each at most a budget of a few
 * milliseconds, with a pause between slices that lets the event loop serve what waits - KV
 * answers, requests, timers - and lets interactive calls go first ({@linkcode Foreground}). So
 * loading or packing the five-language name index (seconds of CPU at full scale) never holds
 * the event loop for more than a slice.
 *
 * The computation stays pure (a generator knows nothing of time or the event loop); only the
 * pacer does I/O. {@linkcode UNSLICED} runs it to the end without a pause: what tests use, so a
 * pack or a load finishes within the call that starts it.
 *
 * @module
 */

import type { Clock } from "./clock.ts";
import type { Foreground } from "./foreground.ts";

/** How a sliced computation is paced. */
export interface Pacer {
  /** True once the slice begun at `start` (a {@linkcode Pacer.now} reading) has had its time. */
  due(start: number): boolean;
  /** Now, in the pacer's milliseconds. */
  now(): number;
  /** The pause between two slices. */
  pause(): Promise<void>;
}

/** Runs every computation to its end in one piece: no clock, no pause. */
export const UNSLICED: Pacer = {
  due: () => false,
  now: () => 0,
  pause: () => Promise.resolve(),
};

/** Options of {@linkcode slicePacer}. */
export interface SlicePacerOptions {
  /** Waits between slices (`sleep(0)`: a macrotask, so pending I/O runs first). */
  readonly clock: Clock;
  /** The longest slice, ms. @default {@linkcode SLICE_MS} */
  readonly sliceMs?: number;
  /** Interactive calls in flight: a pause waits for them, up to `yieldMs`. */
  readonly foreground?: Foreground;
  /** The longest a pause waits for interactive calls, ms. @default {@linkcode YIELD_MS} */
  readonly yieldMs?: number;
  /** A monotonic time source, ms. @default performance.now */
  readonly now?: () => number;
}

/** A slice's budget: well under a frame of a request's latency, many slices a second. */
export const SLICE_MS = 8;
/**
 * How long a pause waits for interactive calls: the background keeps at least a fifth of the
 * event loop (one slice per pause) under a steady stream of calls.
 */
export const YIELD_MS = 32;

/**
 * The production pacer: slices of `sliceMs`, each followed by a macrotask and, while an
 * interactive call is in flight, a wait of up to `yieldMs` for it.
 */
export function slicePacer(options: SlicePacerOptions): Pacer {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const yieldMs = options.yieldMs ?? YIELD_MS;
  const now = options.now ?? (() => performance.now());
  const { clock, foreground } = options;
  return {
    due: (start) => now() - start >= sliceMs,
    now,
    pause: async () => {
      await clock.sleep(0);
      if (foreground?.busy === true) await foreground.idle(yieldMs, clock);
    },
  };
}

/**
 * Runs `steps` to its end in slices paced by `pacer` and returns its result: the generator is
 * resumed until a slice has had its time, then the pacer pauses.
 *
 * @example
 * ```ts
 * const packed = await runInSlices(PackedNames.mergeSteps(base, rows), pacer);
 * ```
 */
export async function runInSlices<T>(
  steps: Iterator<unknown, T, undefined>,
  pacer: Pacer,
): Promise<T> {
  let start = pacer.now();
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    if (pacer.due(start)) {
      await pacer.pause();
      start = pacer.now();
    }
  }
}

/**
 * Runs `steps` to its end at once (the synchronous form of a sliced computation).
 *
 * @example
 * ```ts
 * const packed = runToEnd(PackedNames.mergeSteps(base, rows));
 * ```
 */
export function runToEnd<T>(steps: Iterator<unknown, T, undefined>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
