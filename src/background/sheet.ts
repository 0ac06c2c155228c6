/**
 * The market sheet job (`priory-market-sheet`, every minute, and once at startup): when the
 * published sheet is older than its period, the whole Trading Post is read again
 * (`/v2/commerce/prices?page=`, ~135 requests for the real API), published for every instance
 * (`src/market/sheet_store.ts`), and handed to the sheet's hooks (`MarketSheets.onSheet`: the
 * price history's snapshots). Under a KV lease, so one instance reads it; on the background
 * client, which leaves its reserve of the budget to interactive calls (the real read, 135
 * requests, fits above the reserve of a full bucket).
 *
 * Cost: one read per period - 135 requests every 5 minutes is 0.45 requests/s, 9 % of upstream's
 * sustained 5/s. While the sheet is fresh the per-minute price job (`warm.ts`) reads nothing:
 * price reads are answered from the sheet. See `docs/background.md`.
 *
 * @module
 */

import { deadlineOrSignal } from "../async/deadline.ts";
import type { Gw2PagedReads } from "../gw2/types.ts";
import { type MarketSheets, SHEET_PAGE_SIZE } from "../market/sheets.ts";
import { sheetAge, sheetSize } from "../market/sheet.ts";
import { type BackgroundContext, backgroundKey, jobDeadline } from "./context.ts";
import { acquireLease, releaseLease } from "./lease.ts";

/**
 * The job's lease and the bound of its reads: long enough for a read that waits for the budget
 * (135 requests at 5/s is 27 s from an empty bucket), under the two-minute tick slack.
 */
export const SHEET_LEASE_MS = 90_000;
/**
 * A sheet this close to its period counts as due: the job ticks every minute, and a tick a little
 * early must not wait a whole minute more.
 */
export const SHEET_DUE_SLACK_MS = 10_000;

/** What the sheet job needs. */
export interface SheetJobDeps extends BackgroundContext {
  readonly sheets: MarketSheets;
  /** The background client's paged price read. */
  readonly pages: Pick<Gw2PagedReads, "pricesPage">;
}

/** What one run did. */
export type SheetReport =
  | { readonly ran: false; readonly reason: "fresh" | "leased"; readonly ageS?: number }
  | { readonly ran: true; readonly ids: number; readonly pages: number };

/**
 * Takes a new sheet when the published one is due: the cron handler (every minute) and the
 * startup run.
 *
 * @throws {Gw2Failure} when the read fails (the next tick tries again)
 */
export async function refreshMarketSheet(deps: SheetJobDeps): Promise<SheetReport> {
  const { clock, kv, owner, sheets } = deps;
  const due = (): { fresh: false } | { fresh: true; ageS: number } => {
    const sheet = sheets.latest();
    if (sheet === undefined) return { fresh: false };
    const age = sheetAge(sheet, clock.now());
    return age < sheets.periodMs - SHEET_DUE_SLACK_MS
      ? { fresh: true, ageS: Math.round(age / 1000) }
      : { fresh: false };
  };
  await sheets.current();
  const before = due();
  if (before.fresh) return { ran: false, reason: "fresh", ageS: before.ageS };
  const leaseKey = backgroundKey(deps, "sheet-lease");
  const lease = await acquireLease(kv, leaseKey, owner, SHEET_LEASE_MS, clock);
  if (lease === undefined) return { ran: false, reason: "leased" };
  try {
    // Another instance may have published one since this one last looked.
    await sheets.current({ recheck: true });
    const now = due();
    if (now.fresh) return { ran: false, reason: "fresh", ageS: now.ageS };
    using deadline = jobDeadline(deps, SHEET_LEASE_MS);
    const sheet = await sheets.refresh((page, size, stop) =>
      deps.pages.pricesPage(page, size, deadlineOrSignal(deadline, stop))
    );
    return {
      ran: true,
      ids: sheetSize(sheet),
      pages: Math.max(1, Math.ceil(sheetSize(sheet) / SHEET_PAGE_SIZE)),
    };
  } finally {
    await releaseLease(kv, lease).catch(() => undefined);
  }
}
