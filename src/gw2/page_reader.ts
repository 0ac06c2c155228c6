/**
 * Paged reads of a whole collection (`?page=N&page_size=M`), for the background catalogue
 * crawl: one upstream request per page through the transport (budget, timeout, retries), no
 * cache. Records that fail the schema are skipped and counted rather than failing the page: a
 * crawl over ~75,000 records must not stall on one odd record. The page count comes from
 * `X-Page-Total`; a page past the end is upstream's 400 `page out of range`.
 *
 * @module
 */

import type { z } from "zod";
import type { Deadline } from "../async/deadline.ts";
import { parseWith } from "./endpoints.ts";
import { Gw2UpstreamError } from "./errors.ts";
import type { Transport } from "./transport.ts";
import type { Page } from "./types.ts";

/** GW2's largest `page_size`. */
export const MAX_PAGE_SIZE = 200;

/** Reads pages of one collection endpoint. */
export class PageReader<T> {
  readonly #path: string;
  readonly #transport: Transport;
  readonly #parse: (value: unknown) => T | undefined;

  /** @param path the collection, e.g. `/v2/items`; @param schema each record's schema */
  constructor(path: string, schema: z.ZodType<T>, transport: Transport) {
    this.#path = path;
    this.#transport = transport;
    this.#parse = parseWith(schema);
  }

  /**
   * Reads page `page` (0-based) of `pageSize` records, giving up at `deadline` when one is given
   * (the crawl's slice); `query` adds parameters (`lang`).
   *
   * @throws {RangeError} for a negative page or a size outside 1-200, before any request
   * @throws {Gw2Failure} when upstream fails (a page past the end is `unexpected_status` 400)
   */
  async read(
    page: number,
    pageSize: number,
    deadline?: Deadline,
    query: readonly (readonly [string, string])[] = [],
  ): Promise<Page<T>> {
    if (!Number.isSafeInteger(page) || page < 0) {
      throw new RangeError(`Cannot read page ${page}: pages are numbered from 0`);
    }
    if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new RangeError(`Cannot read pages of ${pageSize}: page_size must be 1-200`);
    }
    const answer = await this.#transport.request({
      endpoint: this.#path,
      path: this.#path,
      query: [["page", String(page)], ["page_size", String(pageSize)], ...query],
      // A collection's pages: a tool call may have joined the read and wait for this one.
      joinable: true,
    }, deadline);
    if (answer.kind === "not_found") throw new Gw2UpstreamError("unexpected_status", 404);
    if (!Array.isArray(answer.json) || answer.pageTotal === undefined) {
      throw new Gw2UpstreamError("malformed", answer.status);
    }
    const records: T[] = [];
    for (const raw of answer.json) {
      const record = this.#parse(raw);
      if (record !== undefined) records.push(record);
    }
    return {
      records,
      skipped: answer.json.length - records.length,
      pageTotal: answer.pageTotal,
      ...(answer.resultTotal === undefined ? {} : { resultTotal: answer.resultTotal }),
    };
  }
}
