/**
 * GW2's reset times and the staleness rule (the contract's "Reset times"). The daily reset is
 * 00:00 UTC; the weekly one Monday 07:30 UTC. ArenaNet keeps a period's completions until the
 * player next logs in (arenanet/api-cdi #640, "working as intended"), so when `/v2/account`'s
 * `last_modified` is before a period's last reset, the account has not been played since and
 * that period's completions are last period's: reported as not done. Pure.
 *
 * @module
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const WEEK_MS = 7 * DAY_MS;
/** The weekly reset's offset into a UTC Monday: 07:30. */
const WEEKLY_OFFSET_MS = (7 * 60 + 30) * MINUTE_MS;
/** 1970-01-05, the first Monday of the epoch, 00:00 UTC. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

/** The periods whose completions reset. */
export type Period = "daily" | "weekly";

/** The last daily reset at or before `now` (epoch ms): that day's 00:00 UTC. */
export function lastDailyReset(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

/** The last weekly reset at or before `now` (epoch ms): a Monday, 07:30 UTC. */
export function lastWeeklyReset(now: number): number {
  const origin = FIRST_MONDAY_MS + WEEKLY_OFFSET_MS;
  return origin + Math.floor((now - origin) / WEEK_MS) * WEEK_MS;
}

/** The next resets after `now`, ISO 8601 to the second (`2026-12-07T07:30:00Z`). */
export function nextResets(now: number): { readonly daily: string; readonly weekly: string } {
  return {
    daily: isoSeconds(lastDailyReset(now) + DAY_MS),
    weekly: isoSeconds(lastWeeklyReset(now) + WEEK_MS),
  };
}

/**
 * The periods whose completions predate their last reset: `lastModified` (an ISO 8601 time, as
 * `/v2/account` gives it) before the period's last reset at `now`. None when `lastModified` is
 * absent or unreadable (an old schema): the data is then taken as it comes.
 */
export function stalePeriods(lastModified: string | undefined, now: number): Period[] {
  const modified = lastModified === undefined ? NaN : Date.parse(lastModified);
  if (Number.isNaN(modified)) return [];
  const stale: Period[] = [];
  if (modified < lastDailyReset(now)) stale.push("daily");
  if (modified < lastWeeklyReset(now)) stale.push("weekly");
  return stale;
}

/**
 * Whether the account's special (seasonal) Vault progress predates the season: `lastModified`
 * before the season's `start` (both ISO 8601). False when either is unreadable.
 */
export function predatesSeason(lastModified: string | undefined, seasonStart: string): boolean {
  const modified = lastModified === undefined ? NaN : Date.parse(lastModified);
  const start = Date.parse(seasonStart);
  return !Number.isNaN(modified) && !Number.isNaN(start) && modified < start;
}

/** `epochMs` as ISO 8601 without milliseconds. */
export function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/u, "Z");
}
