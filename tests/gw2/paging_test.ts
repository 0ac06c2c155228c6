/**
 * Whole collections read page by page (`src/gw2/paging.ts`): one group of workers, groups that
 * join a read in flight, pages taken from a group that waits, failures, and the page bound.
 */

import assert from "node:assert/strict";
import { Gw2RateLimitedError, Gw2UpstreamError } from "../../src/gw2/errors.ts";
import { CollectionRead, type PageRead, STEAL_AFTER_MS } from "../../src/gw2/paging.ts";
import type { Page } from "../../src/gw2/types.ts";
import { ManualClock } from "../support/clock.ts";

/** A collection of `count` numbers, `size` a page. */
function pageOf(count: number, size: number, page: number): Page<number> {
  const records = Array.from({ length: count }, (_, index) => index)
    .slice(page * size, page * size + size);
  return { records, skipped: 0, pageTotal: Math.ceil(count / size), resultTotal: count };
}

/** A reader over {@linkcode pageOf}, recording each page it was asked for. */
function reader(count: number, asked: number[]): PageRead<number> {
  return (page, size) => {
    asked.push(page);
    return Promise.resolve(pageOf(count, size, page));
  };
}

/** A reader whose reads wait until released (or stopped), recording what it was asked. */
function heldReader(asked: number[], stopped: number[]) {
  const held: (() => void)[] = [];
  const read: PageRead<number> = (page, size, stop) =>
    new Promise((resolve, reject) => {
      asked.push(page);
      let answered = false;
      stop.addEventListener("abort", () => {
        if (answered) return;
        stopped.push(page);
        reject(new Gw2UpstreamError("timeout"));
      }, { once: true });
      held.push(() => {
        answered = true;
        resolve(pageOf(1_000, size, page));
      });
    });
  return { read, release: () => held.splice(0).forEach((resolve) => resolve()) };
}

function collection(clock = new ManualClock(), maxPages = 100): CollectionRead<number> {
  return new CollectionRead<number>({ pageSize: 10, maxPages, what: "test collection", clock });
}

/** Yields to the event loop until `done()` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 200; turn++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assert.fail(`never happened: ${what}`);
}

Deno.test("one group reads page 0, then every other page once, and gives them in order", async () => {
  const asked: number[] = [];
  const read = collection();
  read.join(reader(95, asked), 4);
  const pages = await read.done;
  assert.equal(asked[0], 0, "page 0 first: it says how many pages there are");
  assert.deepEqual([...asked].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(pages.flatMap((page) => page.records), Array.from({ length: 95 }, (_, i) => i));
  assert.deepEqual(read.progress(), { read: 10, total: 10 });
});

Deno.test("a page that fails in passing is read again; a 400 past page 0 is the collection's end", async () => {
  const asked: number[] = [];
  let failures = 0;
  const read = collection();
  read.join((page, size) => {
    asked.push(page);
    if (page === 2 && failures++ < 2) {
      return Promise.reject(new Gw2UpstreamError("server_error", 502));
    }
    if (page === 4) return Promise.reject(new Gw2UpstreamError("unexpected_status", 400));
    return Promise.resolve(pageOf(50, size, page));
  }, 2);
  const pages = await read.done;
  assert.equal(asked.filter((page) => page === 2).length, 3, "two failures, then the answer");
  assert.deepEqual(pages[4]?.records, [], "page out of range: an empty last page");
  assert.equal(pages.length, 5);
});

Deno.test("a read past the page bound fails after page 0 alone", async () => {
  const asked: number[] = [];
  const read = collection(new ManualClock(), 3);
  read.join(reader(95, asked), 4);
  await assert.rejects(read.done, /test collection at once: 10 pages, at most 3/);
  assert.deepEqual(asked, [0]);
});

Deno.test("a group that fails for good fails the read when no other group is left", async () => {
  const read = collection();
  read.join(
    (page, size) =>
      page === 3
        ? Promise.reject(new Gw2RateLimitedError(4_000))
        : Promise.resolve(pageOf(95, size, page)),
    3,
  );
  await assert.rejects(read.done, Gw2RateLimitedError);
});

Deno.test("a group joining a read in flight takes only the pages nobody reads, never doubling one", async () => {
  const clock = new ManualClock();
  const slowAsked: number[] = [];
  const stopped: number[] = [];
  const slow = heldReader(slowAsked, stopped);
  const read = collection(clock);
  read.join(slow.read, 2);
  await until(() => slowAsked.length === 1, "page 0 asked");
  slow.release();
  await until(() => slowAsked.length === 3, "two pages in the slow group's hands");
  const fastAsked: number[] = [];
  read.join(reader(1_000, fastAsked), 4);
  await until(() => fastAsked.length === 97, "the fast group read the rest");
  assert.deepEqual(fastAsked.filter((page) => slowAsked.includes(page)), [], "no page read twice");
  slow.release();
  const pages = await read.done;
  assert.equal(pages.length, 100);
  assert.deepEqual(stopped, []);
});

Deno.test(`pages another group has held for ${STEAL_AFTER_MS} ms are read again, and the held reads stopped`, async () => {
  const clock = new ManualClock();
  const slowAsked: number[] = [];
  const stopped: number[] = [];
  const slow = heldReader(slowAsked, stopped);
  const read = collection(clock);
  read.join(slow.read, 3);
  await until(() => slowAsked.length === 1, "page 0 asked");
  slow.release();
  await until(() => slowAsked.length === 4, "three pages held (a background client waiting)");
  const held = slowAsked.slice(1);
  const fastAsked: number[] = [];
  read.join(reader(1_000, fastAsked), 2);
  await until(() => fastAsked.length === 96, "every free page read");
  assert.equal(read.progress().read, 97, "only the held pages are left");
  clock.advance(STEAL_AFTER_MS - 1);
  await until(() => true, "a turn");
  assert.equal(fastAsked.length, 96, "not before they are due");
  clock.advance(1);
  const pages = await read.done;
  assert.equal(pages.length, 100);
  assert.deepEqual([...fastAsked.slice(96)].sort(), [...held].sort(), "the held pages, read again");
  assert.deepEqual([...stopped].sort(), [...held].sort(), "and the waiting reads called off");
});

Deno.test("a failing group leaves the read to the others", async () => {
  const clock = new ManualClock();
  const read = collection(clock);
  const fastAsked: number[] = [];
  read.join(
    (page, size) =>
      page === 0
        ? Promise.resolve(pageOf(1_000, size, page))
        : Promise.reject(new Gw2RateLimitedError(60_000)),
    2,
  );
  read.join(reader(1_000, fastAsked), 2);
  const pages = await read.done;
  assert.equal(pages.length, 100);
});
