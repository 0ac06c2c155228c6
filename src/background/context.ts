/**
 * What every background job receives, and the KV keys they keep their state under:
 * `["background", "v1", <upstream base URL>, name]` (leases, the warm set, the crawl's
 * progress), so a KV shared by the real API and the fake keeps their jobs apart.
 *
 * @module
 */

import type { Clock } from "../clock.ts";
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
}

/** The key of one piece of background state. */
export function backgroundKey(context: BackgroundContext, name: string): Deno.KvKey {
  return ["background", "v1", context.namespace, name];
}
