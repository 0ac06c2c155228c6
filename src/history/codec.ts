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

/** Packs ticks sorted by id (one shard's, see {@linkcode groupByShard}). */
export function encodeTicks(ticks: readonly Tick[]): Uint8Array {
  const out = new Writer(2 + ticks.length * 12);
  out.byte(FORMAT_TICKS);
  out.uint(ticks.length);
  let previous = 0;
  for (const tick of ticks) {
    out.uint(tick.id - previous);
    previous = tick.id;
    out.uint(tick.buy);
    out.uint(tick.buyQty);
    out.uint(tick.sell);
    out.uint(tick.sellQty);
  }
  return out.bytes();
}

/** Unpacks {@linkcode encodeTicks}; an unknown format or a cut value gives what parsed whole. */
export function decodeTicks(bytes: Uint8Array): Tick[] {
  const input = new Reader(bytes);
  if (input.byte() !== FORMAT_TICKS) return [];
  const ticks: Tick[] = [];
  const count = input.uint();
  let id = 0;
  for (let index = 0; index < count && input.more(); index++) {
    id += input.uint();
    const buy = input.uint();
    const buyQty = input.uint();
    const sell = input.uint();
    const sellQty = input.uint();
    if (input.broken) break;
    ticks.push({ id, buy, buyQty, sell, sellQty });
  }
  return ticks;
}

/** Packs bars sorted by id; open, low and high as signed differences from the close. */
export function encodeBars(bars: readonly Bar[]): Uint8Array {
  const out = new Writer(2 + bars.length * 24);
  out.byte(FORMAT_BARS);
  out.uint(bars.length);
  let previous = 0;
  for (const bar of bars) {
    out.uint(bar.id - previous);
    previous = bar.id;
    out.uint(bar.buyClose);
    out.int(bar.buyOpen - bar.buyClose);
    out.int(bar.buyLow - bar.buyClose);
    out.int(bar.buyHigh - bar.buyClose);
    out.uint(bar.sellClose);
    out.int(bar.sellOpen - bar.sellClose);
    out.int(bar.sellLow - bar.sellClose);
    out.int(bar.sellHigh - bar.sellClose);
    out.uint(bar.buyQty);
    out.uint(bar.sellQty);
    out.uint(bar.sold);
    out.uint(bar.bought);
    out.uint(bar.covered);
  }
  return out.bytes();
}

/** Unpacks {@linkcode encodeBars}. */
export function decodeBars(bytes: Uint8Array): Bar[] {
  const input = new Reader(bytes);
  if (input.byte() !== FORMAT_BARS) return [];
  const bars: Bar[] = [];
  const count = input.uint();
  let id = 0;
  for (let index = 0; index < count && input.more(); index++) {
    id += input.uint();
    const buyClose = input.uint();
    const buyOpen = buyClose + input.int();
    const buyLow = buyClose + input.int();
    const buyHigh = buyClose + input.int();
    const sellClose = input.uint();
    const sellOpen = sellClose + input.int();
    const sellLow = sellClose + input.int();
    const sellHigh = sellClose + input.int();
    const buyQty = input.uint();
    const sellQty = input.uint();
    const sold = input.uint();
    const bought = input.uint();
    const covered = input.uint();
    if (input.broken) break;
    bars.push({
      id,
      buyOpen,
      buyClose,
      buyLow,
      buyHigh,
      sellOpen,
      sellClose,
      sellLow,
      sellHigh,
      buyQty,
      sellQty,
      sold,
      bought,
      covered,
    });
  }
  return bars;
}

/** Packs first-seen minutes sorted by id. */
export function encodeSeen(seen: readonly Seen[]): Uint8Array {
  const out = new Writer(2 + seen.length * 6);
  out.byte(FORMAT_SEEN);
  out.uint(seen.length);
  let previous = 0;
  for (const entry of seen) {
    out.uint(entry.id - previous);
    previous = entry.id;
    out.uint(entry.minute);
  }
  return out.bytes();
}

/** Unpacks {@linkcode encodeSeen}. */
export function decodeSeen(bytes: Uint8Array): Seen[] {
  const input = new Reader(bytes);
  if (input.byte() !== FORMAT_SEEN) return [];
  const seen: Seen[] = [];
  const count = input.uint();
  let id = 0;
  for (let index = 0; index < count && input.more(); index++) {
    id += input.uint();
    const minute = input.uint();
    if (input.broken) break;
    seen.push({ id, minute });
  }
  return seen;
}

/** Packs volumes sorted by id, each sum to a hundredth. */
export function encodeVolumes(volumes: readonly Volume[]): Uint8Array {
  const out = new Writer(2 + volumes.length * 10);
  out.byte(FORMAT_VOLUMES);
  out.uint(volumes.length);
  let previous = 0;
  for (const volume of volumes) {
    out.uint(volume.id - previous);
    previous = volume.id;
    out.uint(Math.round(volume.sold * VOLUME_SCALE));
    out.uint(Math.round(volume.bought * VOLUME_SCALE));
    out.uint(Math.round(volume.covered * VOLUME_SCALE));
  }
  return out.bytes();
}

/** Unpacks {@linkcode encodeVolumes}. */
export function decodeVolumes(bytes: Uint8Array): Volume[] {
  const input = new Reader(bytes);
  if (input.byte() !== FORMAT_VOLUMES) return [];
  const volumes: Volume[] = [];
  const count = input.uint();
  let id = 0;
  for (let index = 0; index < count && input.more(); index++) {
    id += input.uint();
    const sold = input.uint() / VOLUME_SCALE;
    const bought = input.uint() / VOLUME_SCALE;
    const covered = input.uint() / VOLUME_SCALE;
    if (input.broken) break;
    volumes.push({ id, sold, bought, covered });
  }
  return volumes;
}

/** Packs non-negative integers (a shard list) ascending, as differences. */
export function encodeNumbers(numbers: readonly number[]): Uint8Array {
  const sorted = [...numbers].sort((a, b) => a - b);
  const out = new Writer(2 + sorted.length * 2);
  out.byte(FORMAT_NUMBERS);
  out.uint(sorted.length);
  let previous = 0;
  for (const value of sorted) {
    out.uint(value - previous);
    previous = value;
  }
  return out.bytes();
}

/** Unpacks {@linkcode encodeNumbers}. */
export function decodeNumbers(bytes: Uint8Array): number[] {
  const input = new Reader(bytes);
  if (input.byte() !== FORMAT_NUMBERS) return [];
  const numbers: number[] = [];
  const count = input.uint();
  let value = 0;
  for (let index = 0; index < count && input.more(); index++) {
    value += input.uint();
    if (input.broken) break;
    numbers.push(value);
  }
  return numbers;
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
