/**
 * The legendary armory on the legendary list and the ranking (issue 30), over the real stack:
 * `priory_legendaries` with `useAccount` adds each row's `owned` and `max`; the ranking adds
 * `owned` when it can read the armory and, with `excludeOwned`, leaves the owned ones out; a key
 * without the armory's permission gets the rest, with `unread` naming it.
 */
import assert from "node:assert/strict";
import { withArmory, withoutOwned } from "../../src/account/armory.ts";
import { LEGENDARIES } from "../../src/data/legendaries.ts";
import { TEST_KEYS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";

type Listed = {
  legendaries: { id: number; name: string; owned?: number; max?: number }[];
  unread?: { part: string; scope: string }[];
};
type Ranked = {
  ranking: { id: number; profit: number | null; owned?: number }[];
  excluded?: number;
  unread?: { part: string; scope: string }[];
};

const SIGIL = 91505;

async function call(app: TestApp, name: string, args: Record<string, unknown>, key?: string) {
  await using client = await connectClient(
    app.handler,
    key === undefined ? {} : { headers: { "X-GW2-Key": key } },
  );
  const result = await client.callTool({ name, arguments: args });
  return result;
}

function structured<T>(result: { structuredContent?: unknown; isError?: unknown }): T {
  assert.equal(result.isError, undefined, JSON.stringify(result));
  // The structured result, checked field by field by the caller.
  return result.structuredContent as T;
}

Deno.test("armory: owned and max on the pure rows; excludeOwned keeps what is not held", () => {
  const rows = withArmory([{ id: 1 }, { id: 2 }, { id: 3 }], [{ id: 2, count: 1 }], [
    { id: 1, max_count: 4 },
    { id: 2, max_count: 1 },
  ]);
  assert.deepEqual(rows, [{ id: 1, owned: 0, max: 4 }, { id: 2, owned: 1, max: 1 }, {
    id: 3,
    owned: 0,
  }]);
  assert.deepEqual(withoutOwned(rows), {
    rows: [{ id: 1, owned: 0, max: 4 }, { id: 3, owned: 0 }],
    excluded: 1,
  });
});

Deno.test("priory_legendaries useAccount: the armory's count and capacity on every row", async () => {
  await using app = await startTestApp();
  const listed = structured<Listed>(
    await call(app, "priory_legendaries", { useAccount: true }, TEST_KEYS.veteran),
  );
  assert.equal(listed.legendaries.length, LEGENDARIES.length);
  const row = (id: number) => listed.legendaries.find((legendary) => legendary.id === id);
  assert.deepEqual([row(WELL_KNOWN.bifrost)?.owned, row(WELL_KNOWN.bifrost)?.max], [1, 2]);
  assert.deepEqual([row(WELL_KNOWN.sunrise)?.owned, row(WELL_KNOWN.sunrise)?.max], [1, 2]);
  assert.deepEqual([row(SIGIL)?.owned, row(SIGIL)?.max], [2, 8]);
  assert.equal(row(WELL_KNOWN.twilight)?.owned, 0);
  assert.equal(listed.legendaries.every((legendary) => legendary.owned !== undefined), true);
  assert.equal(listed.unread, undefined);
  // Without useAccount: the curated list alone, no upstream request.
  app.fake.control.reset();
  const plain = structured<Listed>(await call(app, "priory_legendaries", {}));
  assert.equal(plain.legendaries[0]?.owned, undefined);
  assert.equal(app.fake.control.requests.length, 0);
});

Deno.test("priory_legendaries useAccount: a key without the armory's permission, and none", async () => {
  await using app = await startTestApp();
  const partial = structured<Listed>(
    await call(app, "priory_legendaries", { useAccount: true }, TEST_KEYS.accountOnly),
  );
  assert.equal(partial.legendaries.length, LEGENDARIES.length);
  assert.equal(partial.legendaries[0]?.owned, undefined);
  assert.equal(partial.unread?.[0]?.part, "armory");
  const none = await call(app, "priory_legendaries", { useAccount: true });
  assert.equal(none.isError, true);
  assert.match(textOf(none), /^No GW2 API key/);
});

Deno.test("priory_legendary_ranking: owned from the armory, and excludeOwned leaves those out", async () => {
  await using app = await startTestApp();
  const args = { type: "weapon", generation: 1, limit: 25 };
  const all = structured<Ranked>(
    await call(app, "priory_legendary_ranking", args, TEST_KEYS.veteran),
  );
  const owned: number[] = all.ranking.filter((row) => (row.owned ?? 0) > 0).map((row) => row.id)
    .sort();
  const held = new Set<number>(owned);
  assert.deepEqual(owned, [WELL_KNOWN.bifrost, WELL_KNOWN.sunrise].sort());
  assert.equal(all.ranking.every((row) => row.owned !== undefined), true);
  const kept = structured<Ranked>(
    await call(app, "priory_legendary_ranking", { ...args, excludeOwned: true }, TEST_KEYS.veteran),
  );
  assert.deepEqual(
    kept.ranking.map((row) => row.id),
    all.ranking.map((row) => row.id).filter((id) => !held.has(id)),
  );
  assert.equal(kept.excluded, 2);
  // A key that reads the holdings but not the armory: ranked as before, the armory named unread.
  const noArmory = structured<Ranked>(
    await call(app, "priory_legendary_ranking", args, TEST_KEYS.noWallet),
  );
  assert.equal(noArmory.ranking[0]?.owned, undefined);
  assert.deepEqual(noArmory.unread?.map((part) => part.part), ["armory"]);
});
