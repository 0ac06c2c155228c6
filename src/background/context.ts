/**
 * What every background job receives, the KV keys they keep their state under -
 * `["background", "v1", <upstream base URL>, name]` (leases, the warm set, the crawl's
 * progress), so a KV shared by the real API and the fake keeps their jobs apart - and the
 * deadline that bounds a job's upstream reads.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { type Deadline, deadlineOrSignal, startDeadline } from "../async/deadline.ts";
import type { Logger } from "../log.ts";

/** The shared dependencies of the background jobs. */
export interface BackgroundContext {
  /** The KV every instance shares. */
  readonly kv: Deno.Kv;
  /** The upstream base URL: keeps the state of different upstreams apart. */
  readonly namespace: string;
  /** This instance's id, the owner of the leases it takes. */
  readonly owner: string;
  readonly clock: Clock;
  readonly log: Logger;
  /** Aborts when the process stops: a running job's reads end at once (see {@linkcode jobDeadline}). */
  readonly signal?: AbortSignal;
}

/** The key of one piece of background state. */
export function backgroundKey(context: BackgroundContext, name: string): Deno.KvKey {
  return ["background", "v1", context.namespace, name];
}

/**
 * The deadline of one job run (or crawl slice): `ms` from now on the context's clock, passed
 * early when the context's signal aborts (shutdown). A job runs its reads within it
 * (`withinDeadline`), the same mechanism that bounds a tool call, so no cron handler waits on
 * upstream without end. Dispose it when the run ends.
 */
export function jobDeadline(context: BackgroundContext, ms: number): Deadline & Disposable {
  const timed = startDeadline(context.clock, ms);
  const stop = context.signal;
  if (stop === undefined) return timed;
  return { ...deadlineOrSignal(timed, stop), [Symbol.dispose]: () => timed[Symbol.dispose]() };
}
