/**
 * The market sheet's pure side (`src/market/sheet.ts`): built from price records, looked up by
 * id, packed into shards under KV's value limit and read back exactly.
 */

import assert from "node:assert/strict";
import type { Price } from "../../src/gw2/schemas.ts";
import { KV_VALUE_MAX_BYTES } from "../../src/kv/limits.ts";
import {
  buildSheet,
  packShard,
  packSheet,
  rowAt,
  SHARD_ROWS,
  sheetAge,
  sheetIndex,
  sheetPrice,
  sheetRow,
  sheetSize,
  unpackSheet,
} from "../../src/market/sheet.ts";

function price(id: number, buy: number, sell: number, whitelisted = false): Price {
  return {
    id,
    whitelisted,
    buys: { quantity: id * 3, unit_price: buy },
    sells: { quantity: id * 2, unit_price: sell },
  };
}

const TAKEN = Date.UTC(2026, 10, 29, 12);

Deno.test("buildSheet(): one row per id, ascending, the last record of an id winning", () => {
  const sheet = buildSheet([price(30, 5, 9), price(10, 1, 2, true), price(30, 6, 8)], TAKEN);
  assert.deepEqual([...sheet.ids], [10, 30]);
  assert.equal(sheetSize(sheet), 2);
  assert.deepEqual(sheetRow(sheet, 30), {
    id: 30,
    buyPrice: 6,
    buyQuantity: 90,
    sellPrice: 8,
    sellQuantity: 60,
  });
  assert.deepEqual(sheetPrice(sheet, 10), price(10, 1, 2, true));
  assert.equal(sheetRow(sheet, 20), undefined);
  assert.equal(sheetIndex(sheet, 5), -1);
  assert.equal(sheetIndex(sheet, 31), -1);
  assert.equal(sheetAge(sheet, TAKEN + 61_000), 61_000);
  assert.equal(sheetAge(sheet, TAKEN - 5), 0, "a sheet stamped ahead is not of negative age");
});

Deno.test("buildSheet(): quantities past 32 bits are capped, not wrapped", () => {
  const huge = { ...price(1, 1, 1), buys: { quantity: 2 ** 33, unit_price: 1 } };
  assert.equal(sheetRow(buildSheet([huge], TAKEN), 1)?.buyQuantity, 2 ** 32 - 1);
});

Deno.test("a shard of SHARD_ROWS rows fits one KV value; a sheet reads back from its shards exactly", () => {
  const records = Array.from(
    { length: SHARD_ROWS * 2 + 17 },
    (_, index) => price(index * 7 + 1, index * 11, index * 13 + 5, index % 3 === 0),
  );
  const sheet = buildSheet(records, TAKEN);
  const shards = packSheet(sheet);
  assert.equal(shards.length, 3);
  assert.ok((shards[0]?.byteLength ?? Infinity) <= KV_VALUE_MAX_BYTES);
  const back = unpackSheet(shards, TAKEN);
  assert.ok(back !== undefined);
  assert.deepEqual(back, sheet);
  for (const row of [0, SHARD_ROWS, sheetSize(sheet) - 1]) {
    assert.deepEqual(rowAt(back, row), rowAt(sheet, row));
  }
});

Deno.test("unpackSheet(): a damaged or foreign value reads as no sheet", () => {
  const sheet = buildSheet([price(1, 1, 1), price(2, 2, 2)], TAKEN);
  const [shard] = packSheet(sheet);
  assert.ok(shard !== undefined);
  assert.equal(unpackSheet([shard.subarray(1)], TAKEN), undefined, "not whole rows");
  // The same rows twice: ids no longer ascend.
  assert.equal(unpackSheet([shard, shard], TAKEN), undefined);
  assert.equal(unpackSheet([packShard(sheet, 0, 0)], TAKEN)?.ids.length, 0);
});
