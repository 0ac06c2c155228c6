/**
 * `priory_item_search` over the real stack: a real MCP client, the handler, the real GW2 client
 * over the fake (8,242 items), and the name index on KV — filled the way production fills it
 * (write-through of items read, or a bulk write of the whole catalogue as the crawl will).
 */
import assert from "node:assert/strict";
import { silentLogger } from "../../src/log.ts";
import { CATALOGUE_COMPLETE_FOR_MS, NameIndex } from "../../src/search/name_index.ts";
import { WELL_KNOWN } from "../fake_gw2/mod.ts";
import {
  connectClient,
  createTestHandler,
  type Era,
  startTestApp,
  type TestApp,
  textOf,
} from "../support/app.ts";
import { ManualClock } from "../support/clock.ts";
import { openMemoryKv, tempKvFile } from "../support/kv.ts";
import { StubGw2Client } from "./_stub_gw2.ts";

interface Match {
  readonly id: number;
  readonly name: string;
  readonly rarity: string;
  readonly type: string;
  readonly lang?: string;
}
interface SearchResult {
  readonly matches: Match[];
  readonly index: { readonly names: number; readonly complete: boolean };
}

async function search(
  client: Awaited<ReturnType<typeof connectClient>>,
  args: Record<string, unknown>,
): Promise<SearchResult> {
  const result = await client.callTool({ name: "priory_item_search", arguments: args });
  assert.equal(result.isError, undefined, textOf(result));
  return result.structuredContent as unknown as SearchResult;
}

/** A name index over `kv`, for tests wiring a handler over the stub client. */
function memoryIndex(kv: Deno.Kv): NameIndex {
  return new NameIndex({
    kv,
    namespace: "http://gw2.test",
    log: silentLogger,
    clock: new ManualClock(),
  });
}

/** The fake's whole catalogue written into the index, as the catalogue crawl will do. */
async function crawlCatalogue(app: TestApp): Promise<number> {
  return await app.names.putMany([...app.fake.world.items.values()]);
}

for (const era of ["2025", "2026"] satisfies Era[]) {
  Deno.test(`priory_item_search finds Glob of Ectoplasm first however it is asked for (${era})`, async (t) => {
    await using app = await startTestApp();
    await using client = await connectClient(app.handler, { era });
    const total = await crawlCatalogue(app);
    assert.equal(total, app.fake.world.items.size);
    for (
      const query of [
        "glob of ecto",
        "ectoplasm",
        "Glob of Ectoplasmm",
        "GLOB OF ECTOPLASM",
        "[&AgEJTQAA]",
      ]
    ) {
      await t.step(query, async () => {
        const result = await search(client, { query });
        const ecto = app.fake.world.items.get(WELL_KNOWN.globOfEctoplasm);
        assert.deepEqual(result.matches[0], {
          id: 19721,
          name: "Glob of Ectoplasm",
          rarity: ecto?.rarity,
          type: ecto?.type,
          lang: "en",
        });
        assert.deepEqual(result.index, { names: total, complete: false });
      });
    }
    await t.step('"sunrise" has Sunrise in its top five', async () => {
      const result = await search(client, { query: "sunrise", limit: 5 });
      assert.ok(result.matches.length <= 5);
      assert.ok(result.matches.some((match) => match.id === WELL_KNOWN.sunrise));
    });
    await t.step("filler items are found too, and limit bounds the answer", async () => {
      const filler = app.fake.world.items.get(app.fake.world.fillerItemIds[0] ?? 0);
      assert.ok(filler);
      const result = await search(client, { query: filler.name, limit: 3 });
      assert.equal(result.matches[0]?.name, filler.name);
      assert.ok(result.matches.length <= 3);
    });
    assert.equal(
      app.fake.control.requests.filter((request) => request.path === "/v2/items").length,
      0,
      "searching and resolving an indexed chat link ask upstream nothing",
    );
  });
}

Deno.test("priory_item_search: a miss reads as a miss only once the catalogue is complete", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const empty = await search(client, { query: "ectoplasm" });
  assert.deepEqual(empty, { matches: [], index: { names: 0, complete: false } });
  await crawlCatalogue(app);
  await app.names.markCatalogueComplete(app.clock.now());
  const complete = await search(client, { query: "no such thing zzqx" });
  assert.deepEqual(complete.index, { names: app.fake.world.items.size, complete: true });
  // The pass vouches for the catalogue for eight days; with no pass since, a miss is no proof.
  app.clock.advance(CATALOGUE_COMPLETE_FOR_MS);
  const expired = await search(client, { query: "no such thing zzqx" });
  assert.deepEqual(expired.index, { names: app.fake.world.items.size, complete: false });
});

Deno.test("priory_item_search finds what the server has read: write-through of gw2_items", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler, { era: "2026" });
  const ids = [WELL_KNOWN.globOfEctoplasm, WELL_KNOWN.sunrise];
  const read = await client.callTool({ name: "gw2_items", arguments: { ids } });
  assert.equal(read.isError, undefined);
  const result = await search(client, { query: "Glob of Ectoplasmm" });
  assert.equal(result.matches[0]?.id, WELL_KNOWN.globOfEctoplasm);
  assert.deepEqual(result.index, { names: 2, complete: false });
});

Deno.test("priory_item_search: a name read through one server is found through another on the same KV file", async () => {
  await using file = await tempKvFile();
  using kvA = await Deno.openKv(file.path);
  using kvB = await Deno.openKv(file.path);
  await using first = await startTestApp({ kv: kvA });
  // One clock, as two instances on real time share one (see `TestAppOptions.clock`).
  await using second = await startTestApp({ kv: kvB, clock: first.clock });
  await using clientA = await connectClient(first.handler);
  await using clientB = await connectClient(second.handler, { era: "2026" });
  assert.deepEqual((await search(clientB, { query: "sunrise" })).matches, []);
  await clientA.callTool({ name: "gw2_items", arguments: { ids: [WELL_KNOWN.sunrise] } });
  const found = await search(clientB, { query: "sunrise" });
  assert.equal(found.matches[0]?.id, WELL_KNOWN.sunrise);
  assert.equal(second.fake.control.requests.length, 0, "the second server asked upstream nothing");
});

Deno.test("priory_item_search resolves an item chat link the index lacks through gw2_items' client", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const result = await search(client, { query: "[&AgEJTQAA]" });
  assert.equal(result.matches[0]?.id, WELL_KNOWN.globOfEctoplasm);
  assert.deepEqual(result.index, { names: 1, complete: false }, "and indexes it on the way");
  const itemRequests = () =>
    app.fake.control.requests.filter((request) => request.path === "/v2/items").length;
  assert.equal(itemRequests(), 1);
  await search(client, { query: "[&AgEJTQAA]" });
  assert.equal(itemRequests(), 1, "the second time, the index answers");

  const unknown = await client.callTool({
    name: "priory_item_search",
    arguments: { query: "[&AgEBAAAA]" },
  });
  assert.equal(unknown.isError, true);
  assert.match(textOf(unknown), /^Not found: the GW2 API has no item with id 1\./);
});

const REFUSALS: [string, Record<string, unknown>, RegExp][] = [
  ["no query", {}, /query: query must be text/],
  ["empty", { query: "" }, /query: the query is empty/],
  ["whitespace only", { query: "   \t " }, /query: the query is empty: give an item name/],
  ["over-long", { query: "a".repeat(201) }, /query: the query is 201 characters long, at most 200/],
  ["no letter or digit", { query: "?!" }, /query: the query has no letter or digit/],
  ["a skill chat link", { query: "[&BucCAAA=]" }, /that is a skill chat link, not an item link/],
  ["a broken chat link", { query: "[&AgEJ" }, /is not a valid chat link: copy the whole link/],
  ["a number", { query: 19721 }, /query: query must be text/],
  ["limit 0", { query: "ecto", limit: 0 }, /limit: limit must be at least 1/],
  ["limit 26", { query: "ecto", limit: 26 }, /limit: limit is at most 25/],
  ["fractional limit", { query: "ecto", limit: 2.5 }, /limit: limit must be a whole number/],
  [
    "unknown argument",
    { query: "ecto", name: "x" },
    /unknown argument "name": this tool accepts only query, limit/,
  ],
];

for (const era of ["2025", "2026"] satisfies Era[]) {
  Deno.test(`priory_item_search refuses bad queries before any work (${era})`, async (t) => {
    const gw2 = new StubGw2Client();
    using kv = await openMemoryKv();
    const names = memoryIndex(kv);
    await using handler = createTestHandler({ gw2, names });
    await using client = await connectClient(handler, { era });
    for (const [label, args, pattern] of REFUSALS) {
      await t.step(label, async () => {
        const result = await client.callTool({ name: "priory_item_search", arguments: args });
        assert.equal(result.isError, true);
        assert.equal(result.structuredContent, undefined);
        assert.match(textOf(result), /Invalid arguments for tool priory_item_search: /);
        assert.match(textOf(result), pattern);
      });
    }
    assert.equal(gw2.callCount, 0);
    assert.equal((await kv.get(["names", "v1", "http://gw2.test", "stamp"])).versionstamp, null);
  });
}

Deno.test("priory_item_search accepts the boundary values: 1 and 200 characters, limit 1 and 25", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  await crawlCatalogue(app);
  assert.equal((await search(client, { query: "a".repeat(200) })).matches.length, 0);
  assert.ok((await search(client, { query: "g", limit: 25 })).matches.length === 25);
  assert.equal((await search(client, { query: "g", limit: 1 })).matches.length, 1);
  assert.equal((await search(client, { query: "g" })).matches.length, 10, "limit defaults to 10");
});

Deno.test("priory_item_search's tools/list entry stays within its 330-token share", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  await using client = await connectClient(handler);
  const tool = (await client.listTools()).tools.find((entry) =>
    entry.name === "priory_item_search"
  );
  assert.ok(tool);
  const bytes = (tool.description ?? "").length + JSON.stringify(tool.inputSchema).length +
    JSON.stringify(tool.outputSchema).length;
  // 300 before issue 22: five languages (lang in, lang on a match, the sentence) cost ~27.
  assert.ok(bytes / 4 <= 330, `description and schemas take ${bytes / 4} tokens`);
  assert.match(tool.description ?? "", /^Priory-computed: .*own name index/);
  assert.match(tool.description ?? "", /index\.complete/);
});

Deno.test("priory_item_search says the index is unavailable, and what to do, when KV cannot be read", async () => {
  const kv = await openMemoryKv();
  const names = memoryIndex(kv);
  kv.close();
  await using handler = createTestHandler({ gw2: new StubGw2Client(), names });
  await using client = await connectClient(handler);
  const result = await client.callTool({
    name: "priory_item_search",
    arguments: { query: "ecto" },
  });
  assert.equal(result.isError, true);
  assert.match(
    textOf(result),
    /^Item search unavailable: .*Retry in a minute; if you know the item id, gw2_items answers/,
  );
});
