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
