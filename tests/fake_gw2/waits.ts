/**
 * Cancellable waiting for latency and hangs. A wait settles when its request's signal aborts
 * (rejecting with the signal's reason, like `fetch`) or when the fake closes (rejecting with
 * {@linkcode FakeClosedError}); listeners are removed as soon as it settles, so nothing
 * outlives the request.
 *
 * @module
 */

/** Why a pending answer was abandoned: the fake closed. */
export class FakeClosedError extends TypeError {
  constructor() {
    super("Fake GW2 API closed: the connection was dropped");
    this.name = "FakeClosedError";
  }
}

/** A signal that aborts when either source aborts, with that source's reason. */
export interface LinkedSignal extends Disposable {
  readonly signal: AbortSignal;
}

/** Links two signals; dispose it to detach from both. */
export function linkSignals(first: AbortSignal, second: AbortSignal): LinkedSignal {
  const controller = new AbortController();
  const sources = [first, second];
  const listeners = sources.map((source) => () => controller.abort(source.reason));
  const detach = () => {
    sources.forEach((source, index) => {
      const listener = listeners[index];
      if (listener !== undefined) source.removeEventListener("abort", listener);
    });
  };
  const already = sources.find((source) => source.aborted);
  if (already !== undefined) controller.abort(already.reason);
  else {
    sources.forEach((source, index) => {
      const listener = listeners[index];
      if (listener !== undefined) source.addEventListener("abort", listener, { once: true });
    });
  }
  return { signal: controller.signal, [Symbol.dispose]: detach };
}

/** A promise that only settles (by rejecting) when `signal` aborts. */
export function never(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
