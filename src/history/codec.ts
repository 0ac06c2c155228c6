/**
 * The compact layout of the price history in Deno KV: figures packed as LEB128 varints in a
 * `Uint8Array` (stored by KV as its raw bytes), records sorted by id, each id written as the
 * difference from the one before.
 *
 * Records are grouped by id range ({@linkcode shardOf}): one KV value per shard and period, so a
 * history call reads one shard's series for each item it asks for, and a value stays far under
 * KV's 64 KiB even when every id of its range trades ({@linkcode MAX_SHARD_BYTES}).
 *
 * **Snapshots and bars against the period before.** A shard's value of ticks or bars is either a
 * *keyframe* (each record whole) or a *delta* against the same shard's previous period (the base):
 * a record that did not change is left out, one that did is written as its fields' differences
 * from its base record, and an id the base had and this period has not is listed as gone. Each
 * record says in a mask which of its fields it writes, so a zero (an empty side, a flat hour, no
 * trade) costs nothing. A bar's open, low and high are written as differences from its close, its
 * minutes measured as the difference from the whole period. A delta names its base (how long
 * before it) and a checksum of the base's records: decoded against anything else - a base
 * missing, cut, or not the one it was written against - it reads as nothing, never as wrong
 * figures ({@linkcode decodeTickSeries}). Each tier starts a keyframe at every segment boundary
 * ({@linkcode SEGMENT_MS}), so a series is read from the start of its first segment.
 *
 * Every packed value starts with a format byte; a value in another format (this layout's earlier
 * ones included) decodes to nothing rather than to wrong figures.
 *
 * @module
 */

import type { MarketSheet } from "../market/sheet.ts";

/** One item at one snapshot: best buy order and lowest listing (copper), and the units at each side. */
export interface Tick {
  readonly id: number;
  /** Highest buy order, copper; 0 when there is none. */
  readonly buy: number;
  /** Units ordered, at every price. */
  readonly buyQty: number;
  /** Lowest sell listing, copper; 0 when there is none. */
  readonly sell: number;
  /** Units listed, at every price. */
  readonly sellQty: number;
}

/**
 * One item over an hour or a day: open, close, low and high of each price (low and high ignore
 * the snapshots where that side was empty), the closing quantities, and the quantity changes:
 * `sold` (units the sell listings lost), `bought` (units the buy orders lost), over `covered`
 * minutes of snapshots close enough together to tell (see `rollup.ts`).
 */
export interface Bar {
  readonly id: number;
  readonly buyOpen: number;
  readonly buyClose: number;
  readonly buyLow: number;
  readonly buyHigh: number;
  readonly sellOpen: number;
  readonly sellClose: number;
  readonly sellLow: number;
  readonly sellHigh: number;
  readonly buyQty: number;
  readonly sellQty: number;
  readonly sold: number;
  readonly bought: number;
  /** Minutes of the period the quantity changes were measured over. */
  readonly covered: number;
}

/** When an item first appeared in a snapshot of this server (epoch minutes). */
export interface Seen {
  readonly id: number;
  readonly minute: number;
}

/**
 * One item's recent trade volume (see `volumes.ts`): decayed sums of units sold and bought and of
 * the minutes they were measured over. Stored to a hundredth.
 */
export interface Volume {
  readonly id: number;
  readonly sold: number;
  readonly bought: number;
  readonly covered: number;
}

/** A market sheet's rows as ticks (the sheet holds columns; a snapshot is packed by rows). */
export function ticksOfSheet(sheet: MarketSheet): Tick[] {
  return Array.from(sheet.ids, (id, row) => ({
    id,
    buy: sheet.buyPrice[row] ?? 0,
    buyQty: sheet.buyQuantity[row] ?? 0,
    sell: sheet.sellPrice[row] ?? 0,
    sellQty: sheet.sellQuantity[row] ?? 0,
  }));
}

/** Ids per shard of each tier: about 1 KB per value at the real Trading Post's density. */
export const SHARD_SPAN = { raw: 256, hourly: 128, daily: 64 } as const;

/**
 * Each tier's segments (UTC-aligned): a period whose base is in an earlier segment (or that has
 * none) is a keyframe, so reading a series from a segment's start always finds its keyframe.
 * Snapshots: an hour (a roll-up reads the hour before its own). Hourly bars: a UTC day (what a
 * day's roll-up reads). Daily bars: seven days. Retention cuts into a segment: what is kept of a
 * snapshot's or an hour's no reader reaches (the roll-ups read whole hours and days, the windows
 * 24 hours of snapshots and 7 days of hours), and a daily segment's first day kept is rewritten as
 * a keyframe (`HistoryStore.deleteBefore`), since a year's window reads back to it.
 */
export const SEGMENT_MS = {
  raw: 3_600_000,
  hourly: 86_400_000,
  daily: 7 * 86_400_000,
} as const;

/** The start of the segment of `tier` that the period at `t` is in. */
export function segmentStart(tier: keyof typeof SEGMENT_MS, t: number): number {
  return Math.floor(t / SEGMENT_MS[tier]) * SEGMENT_MS[tier];
}

/**
 * The largest figure stored: GW2's prices (at most 9,999g 99s 99c) and quantities are 32-bit;
 * anything larger is stored as this.
 */
export const MAX_FIGURE = 2 ** 32 - 1;

/** Bytes of a varint up to `n`. */
function varintBytes(n: number): number {
  return Math.max(1, Math.ceil(Math.log2(n + 1) / 7));
}

/**
 * The most bytes a shard value can take: every id of its span present (or gone, in a delta), each
 * field at the largest difference of two figures. Under 12 KB, KV allows 65,536.
 */
export const MAX_SHARD_BYTES = Math.max(
  ...(["raw", "hourly"] as const).map((tier) => {
    const fields = tier === "raw" ? 4 : 13;
    const span = SHARD_SPAN[tier];
    const header = 1 + 1 + varintBytes(2 ** 53) + 4 + 2 * varintBytes(span);
    const record = varintBytes(span * 2 ** fields) + fields * varintBytes(4 * MAX_FIGURE);
    return header + span * (varintBytes(span) + record);
  }),
);

const FORMAT_SEEN = 3;
const FORMAT_VOLUMES = 4;
const FORMAT_NUMBERS = 5;
const FORMAT_TICKS = 6;
const FORMAT_BARS = 7;
/** Volumes are kept to a hundredth. */
const VOLUME_SCALE = 100;

/** The shard of `id` for ids grouped `span` at a time. */
export function shardOf(id: number, span: number): number {
  return Math.floor(id / span);
}

/**
 * `records` grouped by shard, each group sorted by id (duplicates: the last one wins), shards
 * ascending.
 */
export function groupByShard<T extends { readonly id: number }>(
  records: Iterable<T>,
  span: number,
): Map<number, T[]> {
  const byId = new Map<number, T>();
  for (const record of records) byId.set(record.id, record);
  const ids = [...byId.keys()].sort((a, b) => a - b);
  const shards = new Map<number, T[]>();
  for (const id of ids) {
    const shard = shardOf(id, span);
    const group = shards.get(shard) ?? [];
    group.push(byId.get(id) as T);
    shards.set(shard, group);
  }
  return shards;
}

/**
 * How one kind of small record (first-seen times, volumes) is packed: its format byte, and its
 * fields after the id in order, each an unsigned figure or a fraction kept to a hundredth
 * (`scale`).
 */
interface Layout<T extends { readonly id: number }> {
  readonly format: number;
  readonly fields: readonly {
    readonly key: Exclude<keyof T & string, "id">;
    readonly scale?: number;
  }[];
}

const SEEN: Layout<Seen> = { format: FORMAT_SEEN, fields: [{ key: "minute" }] };

const VOLUMES: Layout<Volume> = {
  format: FORMAT_VOLUMES,
  fields: [
    { key: "sold", scale: VOLUME_SCALE },
    { key: "bought", scale: VOLUME_SCALE },
    { key: "covered", scale: VOLUME_SCALE },
  ],
};

/** Packs `records` (sorted by id) by `layout`: a format byte, the count, then each record. */
function pack<T extends { readonly id: number }>(
  layout: Layout<T>,
  records: readonly T[],
): Uint8Array {
  const out = new Writer(2 + records.length * (1 + layout.fields.length * 2));
  out.byte(layout.format);
  out.uint(records.length);
  let previous = 0;
  for (const record of records) {
    out.uint(record.id - previous);
    previous = record.id;
    for (const field of layout.fields) {
      const value = figure(record, field.key);
      out.uint(
        Math.min(MAX_FIGURE, field.scale === undefined ? value : Math.round(value * field.scale)),
      );
    }
  }
  return out.bytes();
}

/**
 * Unpacks {@linkcode pack}'s bytes; a value of another format reads as none, a cut one as the
 * records that parsed whole - never as wrong figures.
 */
function unpack<T extends { readonly id: number }>(layout: Layout<T>, bytes: Uint8Array): T[] {
  const input = new Reader(bytes);
  if (input.byte() !== layout.format) return [];
  const records: T[] = [];
  const count = input.uint();
  let id = 0;
  for (let index = 0; index < count && input.more(); index++) {
    id += input.uint();
    const record: Record<string, number> = { id };
    for (const field of layout.fields) {
      record[field.key] = field.scale === undefined ? input.uint() : input.uint() / field.scale;
    }
    if (input.broken) break;
    // Every field of T was just set, from the layout that names them all.
    records.push(record as unknown as T);
  }
  return records;
}

function figure<T>(record: T, key: keyof T): number {
  const value = record[key];
  return typeof value === "number" ? value : 0;
}

/**
 * How ticks or bars become rows of integers and back. A row's fields are figures (at most
 * {@linkcode MAX_FIGURE}) or, where `signed`, bounded differences: a bar's open, low and high from
 * its close, its minutes measured from the whole period's (`periodMinutes`).
 */
interface RowKind<T extends { readonly id: number }> {
  readonly format: number;
  /** Per field: written signed in a keyframe. */
  readonly signed: readonly boolean[];
  readonly toRow: (record: T, periodMinutes: number) => number[];
  readonly fromRow: (id: number, row: readonly number[], periodMinutes: number) => T;
}

/** A figure as stored: a non-negative integer, at most {@linkcode MAX_FIGURE}. */
function stored(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`Cannot pack ${value}: not a non-negative integer`);
  }
  return Math.min(MAX_FIGURE, value);
}

/** Field `index` of `row` (0 past its end). */
function at(row: readonly number[], index: number): number {
  return row[index] ?? 0;
}

const TICKS: RowKind<Tick> = {
  format: FORMAT_TICKS,
  signed: [false, false, false, false],
  toRow: (tick) => [stored(tick.buy), stored(tick.buyQty), stored(tick.sell), stored(tick.sellQty)],
  fromRow: (id, row) => ({
    id,
    buy: at(row, 0),
    buyQty: at(row, 1),
    sell: at(row, 2),
    sellQty: at(row, 3),
  }),
};

/** The fields most bars have non-zero first, so a flat, quiet bar's mask is one byte. */
const BARS: RowKind<Bar> = {
  format: FORMAT_BARS,
  signed: [false, false, false, false, true, false, false, true, true, true, true, true, true],
  toRow: (bar, periodMinutes) => {
    const buy = stored(bar.buyClose);
    const sell = stored(bar.sellClose);
    return [
      buy,
      sell,
      stored(bar.buyQty),
      stored(bar.sellQty),
      periodMinutes - stored(bar.covered),
      stored(bar.sold),
      stored(bar.bought),
      stored(bar.buyOpen) - buy,
      stored(bar.buyLow) - buy,
      stored(bar.buyHigh) - buy,
      stored(bar.sellOpen) - sell,
      stored(bar.sellLow) - sell,
      stored(bar.sellHigh) - sell,
    ];
  },
  fromRow: (id, row, periodMinutes) => {
    const buy = at(row, 0);
    const sell = at(row, 1);
    return {
      id,
      buyOpen: buy + at(row, 7),
      buyClose: buy,
      buyLow: buy + at(row, 8),
      buyHigh: buy + at(row, 9),
      sellOpen: sell + at(row, 10),
      sellClose: sell,
      sellLow: sell + at(row, 11),
      sellHigh: sell + at(row, 12),
      buyQty: at(row, 2),
      sellQty: at(row, 3),
      sold: at(row, 5),
      bought: at(row, 6),
      covered: periodMinutes - at(row, 4),
    };
  },
};

/** One shard's records at one period: what a series value decodes to. */
export interface Period<T> {
  /** The period's time (epoch ms): a snapshot's, or a bar period's start. */
  readonly t: number;
  readonly records: T[];
}

/** A stored value of a series: its period's time and its bytes. */
export interface StoredValue {
  readonly t: number;
  readonly value: Uint8Array;
}

/**
 * A 32-bit hash of one row and its id. A period's checksum is the sum of its rows' hashes
 * (modulo 2³²): independent of order, and kept up to date row by row as deltas apply.
 */
function rowHash(id: number, row: readonly number[]): number {
  let hash = Math.imul(id ^ 0x9e3779b9, 0x85ebca6b);
  for (const value of row) {
    hash = Math.imul(hash ^ (value | 0), 0x01000193);
    // The high word only where there is one (a row's figures are mostly far below 2³¹).
    if (value > 0x7fffffff || value < -0x80000000) {
      hash = Math.imul(hash ^ ((value / 4294967296) | 0), 0x01000193);
    }
  }
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  return (hash ^ (hash >>> 12)) >>> 0;
}

/** The checksum of `rows`: what a delta is written against. */
function checksum(rows: ReadonlyMap<number, readonly number[]>): number {
  let sum = 0;
  for (const [id, row] of rows) sum = (sum + rowHash(id, row)) >>> 0;
  return sum;
}

/**
 * Packs one shard's records of one period (sorted by id) as a keyframe, or - given the records of
 * the same shard's previous period, `gap` ms before - as a delta against them, whichever is
 * smaller.
 */
function packPeriod<T extends { readonly id: number }>(
  kind: RowKind<T>,
  records: readonly T[],
  periodMinutes: number,
  base?: { readonly gap: number; readonly records: readonly T[] },
): Uint8Array {
  const rows = records.map((record) => [record.id, kind.toRow(record, periodMinutes)] as const);
  const key = packRows(kind, rows);
  if (base === undefined) return key;
  const baseRows = new Map(
    base.records.map((record) => [record.id, kind.toRow(record, periodMinutes)]),
  );
  const delta = packRows(kind, rows, { gap: base.gap, rows: baseRows });
  return delta.byteLength < key.byteLength ? delta : key;
}

function packRows<T extends { readonly id: number }>(
  kind: RowKind<T>,
  rows: readonly (readonly [number, readonly number[]])[],
  base?: { readonly gap: number; readonly rows: ReadonlyMap<number, readonly number[]> },
): Uint8Array {
  const fields = kind.signed.length;
  const out = new Writer(8 + rows.length * (2 + fields * 2));
  out.byte(kind.format);
  out.uint(base === undefined ? 0 : 1);
  let written = rows;
  if (base !== undefined) {
    out.uint(base.gap);
    out.word(checksum(base.rows));
    const present = new Set(rows.map(([id]) => id));
    const gone = [...base.rows.keys()].filter((id) => !present.has(id)).sort((a, b) => a - b);
    out.uint(gone.length);
    let previous = 0;
    for (const id of gone) {
      out.uint(id - previous);
      previous = id;
    }
    written = rows.filter(([id, row]) => {
      const before = base.rows.get(id);
      return before === undefined || row.some((value, index) => value !== before[index]);
    });
  }
  out.uint(written.length);
  let previous = 0;
  for (const [id, row] of written) {
    const before = base?.rows.get(id);
    const values = row.map((value, index) => value - (before?.[index] ?? 0));
    let mask = 0;
    for (let index = 0; index < fields; index++) if (values[index] !== 0) mask |= 1 << index;
    out.uint((id - previous) * 2 ** fields + mask);
    previous = id;
    values.forEach((value, index) => {
      if (value === 0) return;
      if (base !== undefined || kind.signed[index] === true) out.int(value);
      else out.uint(value);
    });
  }
  return out.bytes();
}

/** A shard's rows after one period, and their checksum. */
interface SeriesState {
  readonly t: number;
  readonly rows: Map<number, readonly number[]>;
  readonly sum: number;
}

/**
 * Decodes one shard's series - its stored values in time order, whole periods only - each delta
 * against the period decoded before it. A value that is not of `kind`'s format, is cut, or is a
 * delta whose base is not the period before it (missing, unreadable, or not the one it was
 * written against: the checksum) is left out, and so is every delta after it until the next
 * keyframe: a series reads as fewer periods, never as wrong figures. `only` limits the records
 * returned (every row is still decoded: the next delta needs them).
 */
function decodeSeries<T extends { readonly id: number }>(
  kind: RowKind<T>,
  values: readonly StoredValue[],
  periodMinutes: number,
  only?: ReadonlySet<number>,
): Period<T>[] {
  const out: Period<T>[] = [];
  let state: SeriesState | undefined;
  for (const { t, value } of values) {
    state = unpackRows(kind, value, t, state);
    if (state === undefined) continue;
    const records: T[] = [];
    const ids = only === undefined ? [...state.rows.keys()] : [...only];
    for (const id of ids.sort((a, b) => a - b)) {
      const row = state.rows.get(id);
      if (row !== undefined) records.push(kind.fromRow(id, row, periodMinutes));
    }
    out.push({ t, records });
  }
  return out;
}

function unpackRows<T extends { readonly id: number }>(
  kind: RowKind<T>,
  bytes: Uint8Array,
  t: number,
  before: SeriesState | undefined,
): SeriesState | undefined {
  const input = new Reader(bytes);
  if (input.byte() !== kind.format) return undefined;
  const fields = kind.signed.length;
  const delta = input.uint();
  let rows: Map<number, readonly number[]>;
  let sum = 0;
  if (delta === 0) {
    rows = new Map();
  } else if (delta === 1) {
    const gap = input.uint();
    const expected = input.word();
    if (before === undefined || t - gap !== before.t || before.sum !== expected) return undefined;
    rows = new Map(before.rows);
    sum = before.sum;
    let id = 0;
    for (let gone = input.uint(); gone > 0 && !input.broken; gone--) {
      id += input.uint();
      const row = rows.get(id);
      if (row !== undefined) sum = (sum - rowHash(id, row)) >>> 0;
      rows.delete(id);
    }
  } else {
    return undefined;
  }
  const count = input.uint();
  let id = 0;
  for (let index = 0; index < count && !input.broken; index++) {
    const head = input.uint();
    const mask = head % 2 ** fields;
    id += (head - mask) / 2 ** fields;
    const old = rows.get(id);
    if (old !== undefined) sum = (sum - rowHash(id, old)) >>> 0;
    const row = delta === 1 && old !== undefined ? [...old] : new Array<number>(fields).fill(0);
    for (let field = 0; field < fields; field++) {
      if ((mask & (1 << field)) === 0) continue;
      row[field] = at(row, field) +
        (delta === 1 || kind.signed[field] === true ? input.int() : input.uint());
    }
    rows.set(id, row);
    sum = (sum + rowHash(id, row)) >>> 0;
  }
  return input.broken || input.more() ? undefined : { t, rows, sum };
}

/**
 * Packs one shard's ticks of a snapshot (sorted by id, see {@linkcode groupByShard}): a keyframe,
 * or a delta against `base`, the same shard's previous snapshot `gap` ms before.
 */
export function encodeTicks(
  ticks: readonly Tick[],
  base?: { readonly gap: number; readonly records: readonly Tick[] },
): Uint8Array {
  return packPeriod(TICKS, ticks, 0, base);
}

/**
 * Decodes one raw shard's series (see {@linkcode decodeSeries}): the ticks of each period, of
 * `only` those ids when given.
 */
export function decodeTickSeries(
  values: readonly StoredValue[],
  only?: ReadonlySet<number>,
): Period<Tick>[] {
  return decodeSeries(TICKS, values, 0, only);
}

/** The ticks of one keyframe value (none for a delta, which needs its base). */
export function decodeTicks(bytes: Uint8Array): Tick[] {
  return decodeTickSeries([{ t: 0, value: bytes }])[0]?.records ?? [];
}

/**
 * Packs one shard's bars of a period of `periodMinutes` (sorted by id): a keyframe, or a delta
 * against `base`, the same shard's previous period `gap` ms before.
 */
export function encodeBars(
  bars: readonly Bar[],
  periodMinutes: number,
  base?: { readonly gap: number; readonly records: readonly Bar[] },
): Uint8Array {
  return packPeriod(BARS, bars, periodMinutes, base);
}

/** Decodes one shard's series of bars of `periodMinutes`, as {@linkcode decodeTickSeries}. */
export function decodeBarSeries(
  values: readonly StoredValue[],
  periodMinutes: number,
  only?: ReadonlySet<number>,
): Period<Bar>[] {
  return decodeSeries(BARS, values, periodMinutes, only);
}

/** The bars of one keyframe value of `periodMinutes` (none for a delta). */
export function decodeBars(bytes: Uint8Array, periodMinutes: number): Bar[] {
  return decodeBarSeries([{ t: 0, value: bytes }], periodMinutes)[0]?.records ?? [];
}

/** Packs first-seen minutes sorted by id. */
export function encodeSeen(seen: readonly Seen[]): Uint8Array {
  return pack(SEEN, seen);
}

/** Unpacks {@linkcode encodeSeen}. */
export function decodeSeen(bytes: Uint8Array): Seen[] {
  return unpack(SEEN, bytes);
}

/** Packs volumes sorted by id, each sum to a hundredth. */
export function encodeVolumes(volumes: readonly Volume[]): Uint8Array {
  return pack(VOLUMES, volumes);
}

/** Unpacks {@linkcode encodeVolumes}. */
export function decodeVolumes(bytes: Uint8Array): Volume[] {
  return unpack(VOLUMES, bytes);
}

/** Packs non-negative integers (a shard list) ascending, as differences. */
export function encodeNumbers(numbers: readonly number[]): Uint8Array {
  const sorted = [...numbers].sort((a, b) => a - b);
  return pack({ format: FORMAT_NUMBERS, fields: [] }, sorted.map((id) => ({ id })));
}

/** Unpacks {@linkcode encodeNumbers}. */
export function decodeNumbers(bytes: Uint8Array): number[] {
  return unpack({ format: FORMAT_NUMBERS, fields: [] }, bytes).map((record) => record.id);
}

/** Appends varints to a growing buffer. */
class Writer {
  #buffer: Uint8Array;
  #length = 0;

  constructor(capacity: number) {
    this.#buffer = new Uint8Array(Math.max(16, capacity));
  }

  byte(value: number): void {
    if (this.#length === this.#buffer.length) this.#grow();
    this.#buffer[this.#length++] = value;
  }

  /** A non-negative safe integer (a negative or fractional one is a bug upstream of here). */
  uint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`Cannot pack ${value}: not a non-negative integer`);
    }
    this.#varint(value);
  }

  /** A signed integer, zigzag-mapped (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...). */
  int(value: number): void {
    if (!Number.isSafeInteger(value) || Math.abs(value) > 2 ** 51) {
      throw new RangeError(`Cannot pack ${value}: not an integer`);
    }
    this.#varint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** A 32-bit word, four bytes little-endian. */
  word(value: number): void {
    for (let shift = 0; shift < 32; shift += 8) this.byte(Math.floor(value / 2 ** shift) % 256);
  }

  #varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }

  bytes(): Uint8Array {
    return this.#buffer.slice(0, this.#length);
  }

  #grow(): void {
    const larger = new Uint8Array(this.#buffer.length * 2);
    larger.set(this.#buffer);
    this.#buffer = larger;
  }
}

/** Reads varints; past the end (a cut value) it reads zeros and says `broken`. */
class Reader {
  readonly #bytes: Uint8Array;
  #offset = 0;
  broken = false;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  more(): boolean {
    return this.#offset < this.#bytes.length;
  }

  byte(): number {
    const value = this.#bytes[this.#offset++];
    if (value === undefined) {
      this.broken = true;
      return 0;
    }
    return value;
  }

  uint(): number {
    let value = 0;
    let scale = 1;
    for (let shift = 0; shift < 8; shift++) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80 || this.broken) return value;
      scale *= 0x80;
    }
    this.broken = true;
    return value;
  }

  int(): number {
    const zigzag = this.uint();
    return zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
  }

  word(): number {
    let value = 0;
    for (let shift = 0; shift < 32; shift += 8) value += this.byte() * 2 ** shift;
    return value;
  }
}
