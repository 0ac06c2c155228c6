/**
 * `gw2_api`'s one shaping rule (pure): icons and empty slots dropped, lists past 50 cut with
 * `more` and `next`, lists inside records cut and named, and the 6,000-token bound held with
 * what was left out said.
 */
import assert from "node:assert/strict";
import { API_ARRAY_CUT, API_MAX_BYTES, shapeApiAnswer } from "../../src/passthrough/api_shape.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

Deno.test("gw2_api shape: icons go at any depth, empty slots go, the rest is as upstream sent", () => {
  const shaped = shapeApiAnswer({
    id: 1,
    icon: "https://render.guildwars2.com/file/X/1.png",
    bags: [null, { id: 8932, size: 20, inventory: [null, { id: 19721, count: 3 }, null] }],
    details: { type: "Weapon", icon: "x", nested: { icon: "y", keep: true } },
  }, 0);
  assert.deepEqual(shaped, {
    data: {
      id: 1,
      bags: [{ id: 8932, size: 20, inventory: [{ id: 19721, count: 3 }] }],
      details: { type: "Weapon", nested: { keep: true } },
    },
  });
});

Deno.test("gw2_api shape: a whole list past 50 is cut, with more and the page that continues", () => {
  const ids = Array.from({ length: 130 }, (_, index) => index + 1);
  assert.deepEqual(shapeApiAnswer(ids, 0), { data: ids.slice(0, 50), more: 80, next: 1 });
  assert.deepEqual(shapeApiAnswer(ids, 1), { data: ids.slice(50, 100), more: 30, next: 2 });
  assert.deepEqual(shapeApiAnswer(ids, 2), { data: ids.slice(100) });
  assert.deepEqual(shapeApiAnswer(ids.slice(0, 50), 0), { data: ids.slice(0, 50) });
  // Empty slots do not count: a bank of 480 slots holding 60 items is two pages.
  const bank = Array.from({ length: 480 }, (_, index) => index % 8 === 0 ? { id: index } : null);
  const first = shapeApiAnswer(bank, 0);
  assert.equal((first.data as unknown[]).length, API_ARRAY_CUT);
  assert.deepEqual([first.more, first.next], [10, 1]);
});

Deno.test("gw2_api shape: a page upstream paged says what follows from its headers", () => {
  const records = Array.from({ length: 50 }, (_, index) => ({ id: 100 + index, icon: "i" }));
  const shaped = shapeApiAnswer(records, 1, { page: 1, pageTotal: 6, resultTotal: 300 });
  assert.equal((shaped.data as unknown[]).length, 50);
  assert.deepEqual((shaped.data as unknown[])[0], { id: 100 });
  assert.deepEqual([shaped.more, shaped.next], [200, 2]);
  const last = shapeApiAnswer(records.slice(0, 10), 5, { page: 5, pageTotal: 6, resultTotal: 260 });
  assert.deepEqual([last.more, last.next], [undefined, undefined]);
});

Deno.test("gw2_api shape: a list inside a record is cut where it is, and named", () => {
  const shaped = shapeApiAnswer(
    { id: 7, achievements: Array.from({ length: 75 }, (_, i) => i) },
    0,
  );
  assert.deepEqual(shaped.cut, [{ at: "achievements", more: 25 }]);
  assert.equal((shaped.data as { achievements: unknown[] }).achievements.length, 50);
});

Deno.test("gw2_api shape: the answer stays within 6,000 tokens, saying what was left out", () => {
  // Fifty long records (items with long descriptions): the texts shorten first.
  const long = Array.from({ length: 50 }, (_, index) => ({
    id: index + 1,
    name: `Item ${index}`,
    description: "A long description. ".repeat(60),
  }));
  const texts = shapeApiAnswer(long, 0);
  assert.ok(bytes(texts) <= API_MAX_BYTES);
  assert.equal((texts.data as unknown[]).length, 50, "every entry kept");
  assert.equal(texts.dropped, undefined);
  // Fifty records too big even so: the last ones are left out, their ids said.
  const huge = Array.from({ length: 50 }, (_, index) => ({
    id: index + 1,
    parts: Array.from({ length: 40 }, (_, part) => `part ${part} of a large record`),
  }));
  const cut = shapeApiAnswer(huge, 0);
  assert.ok(bytes(cut) <= API_MAX_BYTES, `${bytes(cut)} bytes`);
  const kept = (cut.data as { id: number }[]).map((entry) => entry.id);
  assert.deepEqual([...kept, ...(cut.dropped ?? [])], huge.map((entry) => entry.id));
  // One record too big even with short texts and lists: its largest fields go, named.
  const blob = {
    name: "Zo\u00eb",
    equipment: Object.fromEntries(
      Array.from({ length: 200 }, (_, index) => [`slot${index}`, "x".repeat(150)]),
    ),
    level: 80,
  };
  const omitted = shapeApiAnswer(blob, 0);
  assert.ok(bytes(omitted) <= API_MAX_BYTES);
  assert.deepEqual(omitted.omitted, ["equipment"]);
  assert.deepEqual(Object.keys(omitted.data as object), ["name", "level"]);
});

Deno.test("gw2_api shape: the 6,000-token bound holds whatever the shape - thousands of small fields, long field names - and omitted says how many it left out", () => {
  const fields = (count: number, name = (index: number) => `field${index}`) =>
    Object.fromEntries(Array.from({ length: count }, (_, index) => [name(index), index]));
  for (
    const [label, answer] of [
      ["a record of 5,000 fields", fields(5_000)],
      ["a list of one such record", [fields(5_000)]],
      ["long field names", fields(2_000, (index) => `${"n".repeat(400)}${index}`)],
    ] as const
  ) {
    const shaped = shapeApiAnswer(answer, 0);
    assert.ok(bytes(shaped) <= API_MAX_BYTES, `${label}: ${bytes(shaped)} bytes`);
    const omitted = shaped.omitted ?? [];
    assert.equal(omitted.length, 21, label);
    assert.match(omitted.at(-1) ?? "", /^\u2026 \d+ more$/, label);
    const record = Array.isArray(shaped.data) ? shaped.data[0] : shaped.data;
    const left = Number(/\d+/.exec(omitted.at(-1) ?? "")?.[0]) + 20;
    const total = Object.keys(Array.isArray(answer) ? answer[0] ?? {} : answer).length;
    assert.equal(
      Object.keys(record as object).length + left,
      total,
      `${label}: every field counted`,
    );
  }
});
