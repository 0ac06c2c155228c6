/**
 * GW2's resets (`src/today/resets.ts`): the daily one at 00:00 UTC, the weekly one Monday 07:30
 * UTC (checked on a Monday before and after 07:30), and the staleness rule per period around
 * both reset times.
 */
import assert from "node:assert/strict";
import {
  isoSeconds,
  lastDailyReset,
  lastWeeklyReset,
  nextResets,
  predatesSeason,
  stalePeriods,
} from "../../src/today/resets.ts";

const at = (iso: string) => Date.parse(iso);

Deno.test("the daily reset is 00:00 UTC: the last one at or before now, the next a day on", () => {
  assert.equal(isoSeconds(lastDailyReset(at("2026-12-01T23:59:59Z"))), "2026-12-01T00:00:00Z");
  assert.equal(isoSeconds(lastDailyReset(at("2026-12-02T00:00:00Z"))), "2026-12-02T00:00:00Z");
  assert.equal(nextResets(at("2026-12-01T23:59:59Z")).daily, "2026-12-02T00:00:00Z");
  assert.equal(nextResets(at("2026-12-02T00:00:00Z")).daily, "2026-12-03T00:00:00Z");
});

Deno.test("the weekly reset is Monday 07:30 UTC: a Monday before 07:30 still counts last week's", () => {
  // 2026-11-30 is a Monday.
  const before = at("2026-11-30T07:29:59Z");
  const after = at("2026-11-30T07:30:00Z");
  assert.equal(isoSeconds(lastWeeklyReset(before)), "2026-11-23T07:30:00Z");
  assert.equal(nextResets(before).weekly, "2026-11-30T07:30:00Z");
  assert.equal(isoSeconds(lastWeeklyReset(after)), "2026-11-30T07:30:00Z");
  assert.equal(nextResets(after).weekly, "2026-12-07T07:30:00Z");
  // The rest of the week (and a Sunday night) reads the same last reset.
  assert.equal(isoSeconds(lastWeeklyReset(at("2026-12-06T23:59:00Z"))), "2026-11-30T07:30:00Z");
  assert.equal(new Date(lastWeeklyReset(at("2030-05-15T12:00:00Z"))).getUTCDay(), 1, "a Monday");
});

Deno.test("daily staleness: a last play before 00:00 UTC is stale after it, not before", () => {
  const lastPlay = "2026-12-01T23:50:00Z"; // a Tuesday night
  assert.deepEqual(stalePeriods(lastPlay, at("2026-12-01T23:59:00Z")), []);
  assert.deepEqual(stalePeriods(lastPlay, at("2026-12-02T00:05:00Z")), ["daily"]);
  assert.deepEqual(stalePeriods("2026-12-02T00:01:00Z", at("2026-12-02T00:05:00Z")), []);
  assert.deepEqual(stalePeriods("2026-12-02T00:00:00Z", at("2026-12-02T00:05:00Z")), [], "at it");
});

Deno.test("weekly staleness: on a Monday, a play before 07:30 is stale only once 07:30 has passed", () => {
  const mondayMorning = "2026-11-30T07:00:00Z";
  assert.deepEqual(stalePeriods(mondayMorning, at("2026-11-30T07:15:00Z")), []);
  assert.deepEqual(stalePeriods(mondayMorning, at("2026-11-30T08:00:00Z")), ["weekly"]);
  assert.deepEqual(stalePeriods("2026-11-30T07:31:00Z", at("2026-11-30T08:00:00Z")), []);
  const sundayNight = "2026-11-29T23:00:00Z";
  assert.deepEqual(stalePeriods(sundayNight, at("2026-11-30T07:15:00Z")), ["daily"]);
  assert.deepEqual(stalePeriods(sundayNight, at("2026-11-30T07:45:00Z")), ["daily", "weekly"]);
});

Deno.test("without a readable last_modified nothing is stale; the season's start for the special track", () => {
  assert.deepEqual(stalePeriods(undefined, at("2026-12-02T12:00:00Z")), []);
  assert.deepEqual(stalePeriods("not a time", at("2026-12-02T12:00:00Z")), []);
  assert.equal(predatesSeason("2026-10-27T16:00:00Z", "2026-10-27T17:00:00Z"), true);
  assert.equal(predatesSeason("2026-10-27T17:00:00Z", "2026-10-27T17:00:00Z"), false);
  assert.equal(predatesSeason(undefined, "2026-10-27T17:00:00Z"), false);
});

Deno.test("edges: a play exactly at a reset is after it; a Sunday and a year boundary count the same", () => {
  // Exactly at the weekly reset: played in the new week.
  assert.deepEqual(stalePeriods("2026-11-30T07:30:00Z", at("2026-11-30T08:00:00Z")), []);
  // A Sunday: the week began the Monday before, 07:30.
  const sunday = at("2027-01-03T12:00:00Z");
  assert.equal(isoSeconds(lastWeeklyReset(sunday)), "2026-12-28T07:30:00Z");
  assert.deepEqual(stalePeriods("2026-12-28T07:29:59Z", sunday), ["daily", "weekly"]);
  assert.deepEqual(stalePeriods("2027-01-03T00:00:00Z", sunday), []);
  // New Year's Eve into the new year: the daily reset at 00:00, the weekly one on the Monday.
  assert.deepEqual(stalePeriods("2026-12-31T23:59:59Z", at("2027-01-01T00:00:00Z")), ["daily"]);
  assert.deepEqual(nextResets(at("2026-12-31T23:59:59Z")), {
    daily: "2027-01-01T00:00:00Z",
    weekly: "2027-01-04T07:30:00Z",
  });
  // upstream's offset form reads the same.
  assert.deepEqual(stalePeriods("2026-11-30T07:30:00+00:00", at("2026-11-30T08:00:00Z")), []);
});
