/**
 * The compact layout of the price history in Deno KV: records packed as unsigned LEB128
 * varints in a `Uint8Array` (stored by KV as its raw bytes), sorted by id, each id written as the
 * difference from the one before. A price of a few silver takes two bytes, a quantity of a few
 * thousand two, so a snapshot record averages ~10 bytes against 20 for five 32-bit integers, and
 * a bar's open, low and high are written as signed differences from its close (a byte or two).
 *
 * Records are grouped by id range ({@linkcode shardOf}): one KV value per shard and time, so a
 * history call reads one shard's series for each item it asks for, and a value stays far under
 * KV's 64 KiB even when every id of its range trades ({@linkcode MAX_SHARD_BYTES}).
 *
 * Every packed value starts with a format byte; a value in another format decodes to nothing
 * rather than to wrong figures.
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
 * The largest figure stored: GW2's prices (at most 9,999g 99s 99c) and quantities are 32-bit;
 * anything larger is stored as this.
 */
export const MAX_FIGURE = 2 ** 32 - 1;

/**
 * The most bytes a shard value can take: every id of its span present, each field at
 * {@linkcode MAX_FIGURE} (5 bytes, a signed difference too; a tick is 5 fields with its id, a bar
 * 14). 9 KB, under KV's 65,536.
 */
export const MAX_SHARD_BYTES = 2 + 5 + Math.max(SHARD_SPAN.raw * 5, SHARD_SPAN.hourly * 14) * 5;

const FORMAT_TICKS = 1;
const FORMAT_BARS = 2;
const FORMAT_SEEN = 3;
const FORMAT_VOLUMES = 4;
const FORMAT_NUMBERS = 5;
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
 * How one kind of record is packed: its format byte, and its fields after the id in order, each
 * an unsigned figure, or a signed difference from a field written before it (`from`), or a
 * fraction kept to a hundredth (`scale`).
 */
interface Layout<T extends { readonly id: number }> {
  readonly format: number;
  readonly fields: readonly {
    readonly key: Exclude<keyof T & string, "id">;
    readonly from?: Exclude<keyof T & string, "id">;
    readonly scale?: number;
  }[];
}

const TICKS: Layout<Tick> = {
  format: FORMAT_TICKS,
  fields: [{ key: "buy" }, { key: "buyQty" }, { key: "sell" }, { key: "sellQty" }],
};

const BARS: Layout<Bar> = {
  format: FORMAT_BARS,
  fields: [
    { key: "buyClose" },
    { key: "buyOpen", from: "buyClose" },
    { key: "buyLow", from: "buyClose" },
    { key: "buyHigh", from: "buyClose" },
    { key: "sellClose" },
    { key: "sellOpen", from: "sellClose" },
    { key: "sellLow", from: "sellClose" },
    { key: "sellHigh", from: "sellClose" },
    { key: "buyQty" },
    { key: "sellQty" },
    { key: "sold" },
    { key: "bought" },
    { key: "covered" },
  ],
};

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
      if (field.from !== undefined) out.int(value - figure(record, field.from));
      else out.uint(field.scale === undefined ? value : Math.round(value * field.scale));
    }
  }
  return out.bytes();
}

/**
 * Unpacks {@linkcode pack}'s bytes; a value of another format reads as none, a cut one as the
 * records that parsed whole — never as wrong figures.
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
      if (field.from !== undefined) record[field.key] = (record[field.from] ?? 0) + input.int();
      else if (field.scale !== undefined) record[field.key] = input.uint() / field.scale;
      else record[field.key] = input.uint();
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

/** Packs ticks sorted by id (one shard's, see {@linkcode groupByShard}). */
export function encodeTicks(ticks: readonly Tick[]): Uint8Array {
  return pack(TICKS, ticks);
}

/** Unpacks {@linkcode encodeTicks}. */
export function decodeTicks(bytes: Uint8Array): Tick[] {
  return unpack(TICKS, bytes);
}

/** Packs bars sorted by id; open, low and high as signed differences from the close. */
export function encodeBars(bars: readonly Bar[]): Uint8Array {
  return pack(BARS, bars);
}

/** Unpacks {@linkcode encodeBars}. */
export function decodeBars(bytes: Uint8Array): Bar[] {
  return unpack(BARS, bytes);
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

  /**
   * A non-negative integer, at most {@linkcode MAX_FIGURE} (a negative or fractional one is a bug
   * upstream of here).
   */
  uint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`Cannot pack ${value}: not a non-negative integer`);
    }
    this.#varint(Math.min(value, MAX_FIGURE));
  }

  /** A signed difference of two figures, zigzag-mapped (0, −1, 1, −2, … → 0, 1, 2, 3, …). */
  int(value: number): void {
    if (!Number.isSafeInteger(value)) throw new RangeError(`Cannot pack ${value}: not an integer`);
    const bounded = Math.max(-MAX_FIGURE, Math.min(MAX_FIGURE, value));
    this.#varint(bounded >= 0 ? bounded * 2 : -bounded * 2 - 1);
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
}
