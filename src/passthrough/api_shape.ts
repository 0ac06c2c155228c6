/**
 * `gw2_api`'s one shaping rule, the same for every endpoint (pure):
 *
 * 1. `icon` fields are dropped, at any depth (URLs the model cannot see);
 * 2. empty slots (`null` entries of an array: a bank's, a bag's) are dropped;
 * 3. an array longer than {@linkcode API_ARRAY_CUT} entries is cut: the answer's own list (a
 *    top-level array) says `more` (entries left) and `next` (the `page` that continues); a list
 *    inside a record is cut where it is and named in `cut` (`{at: "bags.0.inventory", more}`);
 * 4. the whole stays within {@linkcode API_MAX_BYTES} (6,000 tokens): past it, lists inside
 *    records are cut shorter, then long texts, then the answer's own list loses its last entries
 *    (`dropped` names their ids, to read with `ids`), and as a last resort an object's largest
 *    fields are left out (`omitted`).
 *
 * @module
 */

import { API_PAGE_SIZE } from "../gw2/api_path.ts";

/** The longest array kept whole. */
export const API_ARRAY_CUT = 50;
/** The largest shaped answer, in bytes of JSON: 6,000 tokens at four bytes a token. */
export const API_MAX_BYTES = 24_000;
/** Cut lists named in `cut`, at most. */
const MAX_CUTS = 20;
/** Texts longer than this are shortened when the answer is over its bound. */
const LONG_TEXT = 300;
/** The caps tried on lists inside records when the answer is over its bound. */
const NESTED_CAPS = [API_ARRAY_CUT, 20, 10, 5, 1] as const;

/** How upstream paged the answer (from its headers), when it did. */
export interface UpstreamPaging {
  /** The page asked for (the tool's `page`). */
  readonly page: number;
  /** `X-Page-Total`. */
  readonly pageTotal: number;
  /** `X-Result-Total`. */
  readonly resultTotal?: number;
}

/** An entry of an answer's list: an id, a name, or a record. */
export type ApiEntry = number | string | Record<string, unknown>;

/**
 * What an answer holds: a list or a record. A list entry of another kind (a nested list, a
 * boolean) and an answer of another kind are wrapped as `{value}`, so every answer has one
 * shape the tool's output schema can state.
 */
export type ApiData = ApiEntry[] | Record<string, unknown>;

/** The shaped answer. */
export interface ShapedApi {
  readonly data: ApiData;
  /** Entries of the answer's list after these. */
  readonly more?: number;
  /** The `page` that continues the list. */
  readonly next?: number;
  /** Lists inside records that were cut, and how many entries each lost. */
  readonly cut?: { readonly at: string; readonly more: number }[];
  /** Ids of the entries left out to stay within the bound (read them with `ids`). */
  readonly dropped?: (number | string | null)[];
  /** Fields left out to stay within the bound (past 20, the last entry counts the rest). */
  readonly omitted?: string[];
}

interface Walk {
  readonly cap: number;
  readonly shortenTexts: boolean;
  readonly cuts: { at: string; more: number }[];
}

/** `value` with icons and empty slots dropped and lists inside it cut at `walk.cap`. */
function clean(value: unknown, at: string, walk: Walk): unknown {
  if (typeof value === "string") {
    return walk.shortenTexts && value.length > LONG_TEXT
      ? `${value.slice(0, LONG_TEXT)}\u2026`
      : value;
  }
  if (Array.isArray(value)) {
    const kept = value.filter((entry) => entry !== null);
    if (kept.length > walk.cap) walk.cuts.push({ at, more: kept.length - walk.cap });
    return kept.slice(0, walk.cap).map((entry, index) => clean(entry, join(at, index), walk));
  }
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (key !== "icon") out[key] = clean(field, join(at, key), walk);
    }
    return out;
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function entryOf(value: unknown): ApiEntry {
  return typeof value === "number" || typeof value === "string" || isRecord(value)
    ? value
    : { value };
}

function dataOf(value: unknown): ApiData {
  if (Array.isArray(value)) return value.map(entryOf);
  return isRecord(value) ? value : { value };
}

function join(at: string, key: string | number): string {
  return at === "" ? String(key) : `${at}.${key}`;
}

function size(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

function withCuts(shaped: ShapedApi, cuts: readonly { at: string; more: number }[]): ShapedApi {
  return cuts.length === 0 ? shaped : { ...shaped, cut: cuts.slice(0, MAX_CUTS) };
}

/**
 * Shapes an upstream answer. `page` is the tool's page (0 when none was asked); `paging` is
 * upstream's, when it paged the answer itself.
 */
export function shapeApiAnswer(
  value: unknown,
  page: number,
  paging?: UpstreamPaging,
): ShapedApi {
  for (const cap of NESTED_CAPS) {
    for (const shortenTexts of cap === API_ARRAY_CUT ? [false] : [false, true]) {
      const shaped = shapeOnce(value, page, paging, cap, shortenTexts);
      if (size(shaped) <= API_MAX_BYTES) return shaped;
    }
  }
  return fitted(shapeOnce(value, page, paging, 1, true));
}

function shapeOnce(
  value: unknown,
  page: number,
  paging: UpstreamPaging | undefined,
  cap: number,
  shortenTexts: boolean,
): ShapedApi {
  const walk: Walk = { cap, shortenTexts, cuts: [] };
  if (!Array.isArray(value)) return withCuts({ data: dataOf(clean(value, "", walk)) }, walk.cuts);
  const entries = value.filter((entry) => entry !== null);
  if (paging !== undefined) {
    // Upstream paged it (API_PAGE_SIZE a page): this page's entries, and what follows.
    const after = (paging.resultTotal ?? 0) - (paging.page + 1) * API_PAGE_SIZE;
    const data = entries.slice(0, API_ARRAY_CUT).map((entry, index) =>
      entryOf(clean(entry, String(index), walk))
    );
    return withCuts({
      data,
      ...(after > 0 ? { more: after } : {}),
      ...(paging.page + 1 < paging.pageTotal ? { next: paging.page + 1 } : {}),
    }, walk.cuts);
  }
  // A whole list: the tool pages it itself.
  const start = page * API_ARRAY_CUT;
  const data = entries.slice(start, start + API_ARRAY_CUT).map((entry, index) =>
    entryOf(clean(entry, String(start + index), walk))
  );
  const more = Math.max(0, entries.length - start - API_ARRAY_CUT);
  return withCuts({ data, ...(more > 0 ? { more, next: page + 1 } : {}) }, walk.cuts);
}

/** The last resorts: the list's last entries, or the object's largest fields, left out. */
function fitted(shaped: ShapedApi): ShapedApi {
  const { data } = shaped;
  if (Array.isArray(data)) {
    const kept = [...data];
    const dropped: (number | string | null)[] = [];
    while (kept.length > 1 && size({ ...shaped, data: kept, dropped }) > API_MAX_BYTES) {
      const entry = kept.pop();
      dropped.unshift(idOf(entry));
    }
    const listed = { ...shaped, data: kept, dropped };
    if (size(listed) <= API_MAX_BYTES) return listed;
    // One entry alone is over the bound: its largest fields go.
    const [first] = kept;
    if (!isRecord(first)) return listed;
    const { value, omitted } = withoutLargest(first, (entry) => ({ ...listed, data: [entry] }));
    return { ...listed, data: [value], omitted };
  }
  const { value, omitted } = withoutLargest(data, (entry) => ({ ...shaped, data: entry }));
  return { ...shaped, data: value, omitted };
}

/**
 * `value` without its largest fields until `whole(value)` fits. Each field's share of the JSON
 * is measured once and the whole only when that count says it fits, so a record of thousands of
 * small fields costs a sort, not a measure per field; `omitted` names at most
 * {@linkcode MAX_OMITTED} of them (then counts the rest), so it cannot outgrow the bound itself.
 */
function withoutLargest(
  value: Record<string, unknown>,
  whole: (value: Record<string, unknown>) => ShapedApi,
): { readonly value: Record<string, unknown>; readonly omitted: string[] } {
  const names: string[] = [];
  // The upstream order is kept; the largest fields go first.
  const kept: Record<string, unknown> = { ...value };
  const largest = Object.entries(value)
    .map(([key, field]) => ({ key, share: size(key) + size(field) + 2 }))
    .sort((a, b) => b.share - a.share);
  let estimate = size(whole(kept));
  for (const { key, share } of largest) {
    const omitted = omittedList(names);
    if (
      estimate + size(omitted) <= API_MAX_BYTES &&
      size({ ...whole(kept), omitted }) <= API_MAX_BYTES
    ) break;
    delete kept[key];
    names.push(key);
    estimate -= share;
  }
  return { value: kept, omitted: omittedList(names) };
}

/** Names of left-out fields listed at most (each cut to {@linkcode LONG_TEXT}). */
const MAX_OMITTED = MAX_CUTS;

/** The `omitted` list of `names`: the first {@linkcode MAX_OMITTED}, then how many more. */
function omittedList(names: readonly string[]): string[] {
  const listed = names.slice(0, MAX_OMITTED).map((name) => name.slice(0, LONG_TEXT));
  return names.length > MAX_OMITTED
    ? [...listed, `\u2026 ${names.length - MAX_OMITTED} more`]
    : listed;
}

function idOf(entry: unknown): number | string | null {
  const id = typeof entry === "object" && entry !== null && "id" in entry ? entry.id : entry;
  return typeof id === "number" || typeof id === "string" ? id : null;
}
