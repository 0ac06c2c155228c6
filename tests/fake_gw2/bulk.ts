/**
 * The GW2 API's bulk-expansion rules over one collection: the bare endpoint lists every id;
 * `/ID` and `?id=` give one record or 404 `no such id`; `?ids=` gives 200, 206 with only the
 * found records, or 404 `all ids provided are invalid`, with at most 200 ids; `ids=all` where
 * allowed; `page`/`page_size` with `X-Page-*` and `Link`. `X-Result-Count` is the number of
 * records returned and `X-Result-Total` the size of the whole collection.
 *
 * @module
 */

import { type Answer, failure, ok, pageOutOfRange, pageSizeOutOfRange, TEXT } from "./responses.ts";

/** Most ids one `ids=` request may carry. */
export const MAX_IDS = 200;
/** `page_size` when the request gives none. */
export const DEFAULT_PAGE_SIZE = 50;
/** Largest `page_size`. */
export const MAX_PAGE_SIZE = 200;

/** A collection the bulk rules apply to. */
export interface Collection<K extends number | string> {
  /** Every id, in the order upstream lists them. */
  readonly ids: readonly K[];
  /** The record of an id, or undefined when the collection lacks it. */
  record(id: K): unknown;
  /** Parses an id token from the path or `ids=`; undefined when it cannot be an id. */
  parse(token: string): K | undefined;
  /** Whether `ids=all` expands every record. */
  readonly allowAll: boolean;
  /** The 404 text of a single unknown id. */
  readonly noSuchText: string;
  /** Path (plus fixed query, e.g. `?input=19721`) that `Link` headers point at. */
  readonly linkBase: string;
}

/** Parses a decimal id token. */
export function parseNumericId(token: string): number | undefined {
  return /^\d{1,9}$/u.test(token) ? Number(token) : undefined;
}

/** Answers a bulk request; `pathId` is the decoded `/ID` segment when present. */
export function bulkAnswer<K extends number | string>(
  collection: Collection<K>,
  params: URLSearchParams,
  pathId?: string,
): Answer {
  if (pathId !== undefined) return single(collection, pathId);
  const ids = params.get("ids");
  if (ids !== null) return many(collection, ids);
  const id = params.get("id");
  if (id !== null) return single(collection, id);
  const page = params.get("page");
  if (page !== null) return paged(collection, page, params.get("page_size"));
  return ok(collection.ids, resultHeaders(collection.ids.length, collection.ids.length));
}

/** How many ids an `ids=` value lists (`all` counts as none), for the request log. */
export function countIds(ids: string | null): number {
  if (ids === null || ids.trim() === "all") return 0;
  return splitIds(ids).length;
}

/** The tokens of an `ids=` value, trimmed, empty ones dropped. */
export function splitIds(ids: string): string[] {
  return ids.split(",").map((token) => token.trim()).filter((token) => token !== "");
}

function single<K extends number | string>(collection: Collection<K>, token: string): Answer {
  const id = collection.parse(token.trim());
  const record = id === undefined ? undefined : collection.record(id);
  return record === undefined ? failure(404, collection.noSuchText) : ok(record);
}

function many<K extends number | string>(collection: Collection<K>, raw: string): Answer {
  if (raw.trim() === "all") {
    if (!collection.allowAll) return failure(400, TEXT.allNotSupported);
    const records = collection.ids.map((id) => collection.record(id));
    return ok(records, resultHeaders(records.length, collection.ids.length));
  }
  const tokens = splitIds(raw);
  // Counted as sent: a client that sends more than 200 tokens is wrong even with duplicates.
  if (tokens.length > MAX_IDS) return failure(400, TEXT.idListTooLong);
  const requested = new Set<K>();
  const unparseable = new Set<string>();
  for (const token of tokens) {
    const id = collection.parse(token);
    if (id === undefined) unparseable.add(token);
    else requested.add(id);
  }
  // Collection order, not request order: upstream's order is unconfirmed, so clients must
  // not rely on it, and a fake that echoed the request order would hide that bug.
  const found = collection.ids.filter((id) => requested.has(id));
  if (found.length === 0) return failure(404, TEXT.allIdsInvalid);
  const partial = found.length < requested.size + unparseable.size;
  const records = found.map((id) => collection.record(id));
  return {
    status: partial ? 206 : 200,
    body: records,
    headers: resultHeaders(records.length, collection.ids.length),
  };
}

function paged<K extends number | string>(
  collection: Collection<K>,
  rawPage: string,
  rawSize: string | null,
): Answer {
  const size = rawSize === null ? DEFAULT_PAGE_SIZE : parseNumericId(rawSize.trim());
  if (size === undefined || size < 1 || size > MAX_PAGE_SIZE) {
    return failure(400, pageSizeOutOfRange(MAX_PAGE_SIZE));
  }
  const total = collection.ids.length;
  const pageTotal = Math.ceil(total / size);
  const lastPage = Math.max(0, pageTotal - 1);
  const page = parseNumericId(rawPage.trim());
  if (page === undefined || page > lastPage) return failure(400, pageOutOfRange(lastPage));
  const records = collection.ids.slice(page * size, page * size + size).map((id) =>
    collection.record(id)
  );
  return ok(records, {
    ...resultHeaders(records.length, total),
    "X-Page-Size": String(size),
    "X-Page-Total": String(pageTotal),
    Link: linkHeader(collection.linkBase, page, lastPage, size),
  });
}

function resultHeaders(count: number, total: number): Record<string, string> {
  return { "X-Result-Count": String(count), "X-Result-Total": String(total) };
}

function linkHeader(base: string, page: number, lastPage: number, size: number): string {
  const separator = base.includes("?") ? "&" : "?";
  const link = (target: number, rel: string) =>
    `<${base}${separator}page=${target}&page_size=${size}>; rel=${rel}`;
  return [
    ...(page > 0 ? [link(page - 1, "previous")] : []),
    ...(page < lastPage ? [link(page + 1, "next")] : []),
    link(page, "self"),
    link(0, "first"),
    link(lastPage, "last"),
  ].join(", ");
}
