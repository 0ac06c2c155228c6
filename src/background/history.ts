/**
 * The price history's two background jobs. **The snapshot**: each market sheet the sheet job
 * publishes (the whole Trading Post's prices, read in bulk every `PRIORY_SNAPSHOT_MINUTES`:
 * `src/background/sheet.ts`, whose hook calls this) is written as one snapshot - no upstream
 * request of its own - by one instance, under the `history-lease`, and only when half a period
 * has passed since the last one (two sheets published close together make one snapshot). **The upkeep** (a cron every minute): roll-ups, running
 * volumes and retention (`src/history/upkeep.ts`), under the `history-upkeep-lease`.
 *
 * @module
 */

import { ticksOfSheet } from "../history/codec.ts";
import type { HistoryStore } from "../history/store.ts";
import type { MarketSheet } from "../market/sheet.ts";
import { upkeep, type UpkeepReport } from "../history/upkeep.ts";
import { type BackgroundContext, backgroundKey, jobDeadline } from "./context.ts";
import { underLease } from "./lease.ts";

/** How long the snapshot writer keeps others out: a snapshot's ~500 KV writes take well under it. */
export const SNAPSHOT_LEASE_MS = 60_000;
/** How long an upkeep run may take (an hour's roll-up reads ~5 MB, a day's ~20 MB). */
export const UPKEEP_LEASE_MS = 4 * 60_000;

/** What the history jobs need beside the shared context. */
export interface HistoryJobDeps extends BackgroundContext {
  readonly history: HistoryStore;
  /** `PRIORY_SNAPSHOT_MINUTES`. */
  readonly snapshotMinutes: number;
}

/** What a snapshot run reports. */
export type SnapshotReport =
  | { readonly ran: false; readonly reason: "leased" | "recent" | "empty" }
  | {
    readonly ran: true;
    readonly at: number;
    readonly ids: number;
    readonly shards: number;
    readonly bytes: number;
    readonly commits: number;
  };

/**
 * Records `sheet` as a snapshot, unless another instance holds the lease, one was taken less than
 * half a period before it, or it is empty. `previous`, the sheet before it (the sheet's hook
 * gives both), spares reading the last snapshot back.
 */
export async function recordSnapshot(
  deps: HistoryJobDeps,
  sheet: MarketSheet,
  previous?: MarketSheet,
): Promise<SnapshotReport> {
  const { kv, clock, owner, history } = deps;
  const key = backgroundKey(deps, "history-lease");
  const report = await underLease(kv, key, owner, SNAPSHOT_LEASE_MS, clock, async () => {
    const latest = await history.latest("raw");
    if (latest !== undefined && sheet.takenAt - latest < deps.snapshotMinutes * 30_000) {
      return { ran: false, reason: "recent" } as const;
    }
    const ticks = ticksOfSheet(sheet);
    if (ticks.length === 0) return { ran: false, reason: "empty" } as const;
    using deadline = jobDeadline(deps, SNAPSHOT_LEASE_MS);
    // The sheet before is most likely the last snapshot (another instance's, or this one's):
    // what this one's shards are written against, when it is.
    const before = previous === undefined
      ? undefined
      : { t: previous.takenAt, ticks: ticksOfSheet(previous) };
    const written = await history.writeSnapshot(sheet.takenAt, ticks, deadline.signal, before);
    if (written === undefined) return { ran: false, reason: "recent" } as const;
    return { ran: true, at: sheet.takenAt, ...written } as const;
  });
  return "leased" in report ? { ran: false, reason: "leased" } : report;
}

/** What an upkeep run reports. */
export type HistoryUpkeepReport =
  | { readonly ran: false; readonly reason: "leased" }
  | ({ readonly ran: true } & UpkeepReport);

/** The roll-ups, volumes and retention due now, on one instance at a time. */
export async function historyUpkeep(deps: HistoryJobDeps): Promise<HistoryUpkeepReport> {
  const { kv, clock, owner } = deps;
  const key = backgroundKey(deps, "history-upkeep-lease");
  const report = await underLease(kv, key, owner, UPKEEP_LEASE_MS, clock, async () => {
    using deadline = jobDeadline(deps, UPKEEP_LEASE_MS);
    const done = await upkeep({
      store: deps.history,
      now: clock.now(),
      snapshotMinutes: deps.snapshotMinutes,
      signal: deadline.signal,
    });
    return { ran: true, ...done } as const;
  });
  return "leased" in report ? { ran: false, reason: "leased" } : report;
}
