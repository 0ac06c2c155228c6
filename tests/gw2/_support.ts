/**
 * Test helpers of the upstream layer: a scripted `fetch`, GW2-style JSON answers, and a driver
 * that fires a request's timeouts on a {@linkcode ManualClock}.
 *
 * @module
 */

import type { ManualClock } from "../support/clock.ts";

/** One scripted answer of {@linkcode scriptedFetch}. */
export type Script = (
  url: URL,
  init: RequestInit,
) => Response | Promise<Response> | "hang" | "fail";

/** A recorded call of {@linkcode scriptedFetch}. */
export interface FetchCall {
  readonly url: URL;
  readonly headers: Headers;
}

/**
 * A `fetch` that answers from `script` (one entry per call; the last one repeats): a Response,
 * `"fail"` (a network error) or `"hang"` (never answers until the signal aborts).
 */
export function scriptedFetch(...script: Script[]): {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  calls: FetchCall[];
} {
  const calls: FetchCall[] = [];
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input);
    calls.push({ url, headers: new Headers(init.headers) });
    const step = script[Math.min(calls.length, script.length) - 1];
    if (step === undefined) throw new TypeError("scriptedFetch: empty script");
    const answer = await step(url, init);
    if (answer === "fail") throw new TypeError("error sending request: connection refused");
    if (answer !== "hang") return answer;
    return await new Promise<Response>((_, reject) => {
      const signal = init.signal;
      if (signal === null || signal === undefined) return;
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  };
  return { fetch, calls };
}

/** A JSON answer as GW2 sends it (pretty-printed, JSON content type). */
export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * Settles `promise`, firing the armed timeout `fires` times: each time, it waits (yielding to
 * the event loop) until a timeout is armed, then moves the clock by `stepMs`. Use it when the
 * first `fires` attempts hang, so every armed timeout belongs to a hanging attempt.
 */
export async function withTimeouts<T>(
  promise: Promise<T>,
  clock: ManualClock,
  stepMs: number,
  fires: number,
): Promise<T> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  for (let fired = 0; fired < fires; fired++) {
    for (let turn = 0; clock.pendingSleeps === 0; turn++) {
      if (turn > 10_000) throw new Error(`withTimeouts: no timeout armed for fire ${fired + 1}`);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    clock.advance(stepMs);
  }
  const settled = await outcome;
  if ("error" in settled) throw settled.error;
  return settled.value;
}

/**
 * The first of `times` (when requests were sent or arrived, epoch ms) that one budget — at most
 * `capacity` tokens, refilled at `perSec`, from `start` on — could not have paid for: the k-th
 * request by time t needs k ≤ capacity + perSec × (t − start) / 1000. A request is paid for when
 * it is decided and sent or received later, so event-loop lag only delays the times and makes the
 * bound easier to meet: it holds however loaded the machine is, and fails when more than one
 * budget was spent (two instances each spending their own, say). `undefined` when all fit.
 */
export function overspent(
  times: readonly number[],
  start: number,
  capacity: number,
  perSec: number,
): string | undefined {
  const sorted = [...times].sort((a, b) => a - b);
  for (const [index, at] of sorted.entries()) {
    const affordable = capacity + (perSec * (at - start)) / 1000;
    if (index + 1 > affordable + 1e-9) {
      return `request ${index + 1} at +${at - start} ms: one budget affords ${
        affordable.toFixed(2)
      }`;
    }
  }
  return undefined;
}

/**
 * A JSON body of `totalBytes` (`[`, spaces, `]`: an empty list) streamed in 64 KiB chunks made
 * only when read, and how much of it was read: to see whether a reader stops early.
 */
export function streamedJson(
  totalBytes: number,
): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = 64 * 1024;
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = Math.min(chunk, totalBytes - pulled);
      if (size <= 0) {
        controller.close();
        return;
      }
      const bytes = new Uint8Array(size).fill(0x20);
      if (pulled === 0) bytes[0] = 0x5b;
      if (pulled + size === totalBytes) bytes[size - 1] = 0x5d;
      pulled += size;
      controller.enqueue(bytes);
    },
  }, { highWaterMark: 0 });
  return { body, pulled: () => pulled };
}
