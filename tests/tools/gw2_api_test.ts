/**
 * `gw2_api` over the real stack (MCP handler, GW2 client, in-memory KV, the fake): a public
 * endpoint, an authenticated one, a list past 50 continued page by page, the shaping rule, and
 * every refusal - a path the list does not name, traversal, another host, a query string, an
 * extra parameter, a caller's `access_token`, a route handing out a credential - each sent, and
 * refused with its reason before any request but the endpoint list reaches upstream.
 */
import assert from "node:assert/strict";
import { API_ANSWER_READ_MAX_BYTES } from "../../src/gw2/api_path.ts";
import { createFakeGw2, TEST_KEYS } from "../fake_gw2/mod.ts";
import { FILLER_SKIN_COUNT } from "../fake_gw2/world/achievements.ts";
import {
  connectClient,
  createTestHandler,
  startTestApp,
  type TestApp,
  textOf,
} from "../support/app.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";
import { streamedJson } from "../gw2/_support.ts";

type Shaped = {
  data: unknown;
  more?: number;
  next?: number;
  cut?: { at: string; more: number }[];
};

async function call(app: TestApp, args: Record<string, unknown>, key?: string) {
  await using client = await connectClient(
    app.handler,
    key === undefined ? {} : { headers: { "X-GW2-Key": key } },
  );
  return await client.callTool({ name: "gw2_api", arguments: args });
}

async function read(app: TestApp, args: Record<string, unknown>, key?: string): Promise<Shaped> {
  const result = await call(app, args, key);
  assert.equal(result.isError, undefined, textOf(result));
  // The structured result, checked field by field by the caller.
  return result.structuredContent as Shaped;
}

function records(shaped: Shaped): Record<string, unknown>[] {
  assert.ok(Array.isArray(shaped.data), JSON.stringify(shaped));
  return shaped.data;
}

/** Upstream paths the fake was asked, besides the endpoint list. */
function asked(app: TestApp): string[] {
  return app.fake.control.requests.map((request) => request.path).filter((path) =>
    path !== "/v2.json"
  );
}

Deno.test("gw2_api: a public endpoint, in the language asked, icons dropped", async () => {
  await using app = await startTestApp();
  const skins = records(await read(app, { path: "/v2/skins", ids: [2377, 90001], lang: "de" }));
  assert.deepEqual(skins.map((skin) => skin.id), [2377, 90001]);
  assert.equal(skins[0]?.name, "Bereifter Orichalcum R\u00fccken");
  assert.equal(JSON.stringify(skins).includes("icon"), false);
  const sent = app.fake.control.requests.find((request) => request.path === "/v2/skins");
  assert.match(sent?.query ?? "", /ids=2377,90001/);
  assert.match(sent?.query ?? "", /lang=de/);
});

Deno.test("gw2_api: a list past 50 is cut with more and next, and next continues it", async () => {
  await using app = await startTestApp();
  const total = 3 + FILLER_SKIN_COUNT;
  const first = await read(app, { path: "/v2/skins" });
  assert.equal(records(first).length, 50);
  assert.deepEqual([first.more, first.next], [total - 50, 1]);
  const second = await read(app, { path: "/v2/skins", page: first.next });
  const ids = records(second).map((skin) => skin.id);
  assert.equal(ids.length, 50);
  assert.equal(ids[0], 90_048, "the page after the first 50 ids");
  assert.deepEqual([second.more, second.next], [total - 100, 2]);
  const last = await read(app, { path: "/v2/skins", page: 5 });
  assert.equal(records(last).length, total - 250);
  assert.deepEqual([last.more, last.next], [undefined, undefined]);
  const past = await call(app, { path: "/v2/skins", page: 6 });
  assert.equal(past.isError, true);
  assert.match(
    textOf(past),
    /^Refused: the GW2 API answered 400 .* \/v2\/skins page 6: a page past/,
  );
});

Deno.test("gw2_api: an authenticated endpoint reads with the player's key, never echoing it", async () => {
  await using app = await startTestApp();
  const points = await read(app, { path: "/v2/account/mastery/points" }, TEST_KEYS.full);
  assert.ok(typeof points.data === "object" && points.data !== null && "totals" in points.data);
  const sent = app.fake.control.requests.find((request) =>
    request.path === "/v2/account/mastery/points"
  );
  assert.equal(sent?.keyLabel, "full");
  assert.doesNotMatch(sent?.query ?? "", /access_token/);
  // The bank: empty slots dropped, then cut at 50 with the page that continues.
  const bank = await read(app, { path: "/v2/account/bank" }, TEST_KEYS.full);
  const held = app.fake.world.bank.filter((slot) => slot !== null);
  assert.deepEqual(records(bank), held.slice(0, 50));
  assert.deepEqual([bank.more, bank.next], [held.length - 50, 1]);
  const more = await read(app, { path: "/v2/account/bank", page: 1 }, TEST_KEYS.full);
  assert.deepEqual(records(more), held.slice(50, 100));
  for (const text of [JSON.stringify(points), JSON.stringify(bank), ...app.logs]) {
    assert.equal(text.includes(TEST_KEYS.full), false);
  }
});

Deno.test("gw2_api: without the key or its scope, the error names what is missing", async () => {
  await using app = await startTestApp();
  const none = await call(app, { path: "/v2/account/achievements" });
  assert.equal(none.isError, true);
  assert.match(textOf(none), /^No GW2 API key/);
  const scope = await call(app, { path: "/v2/account/achievements" }, TEST_KEYS.accountOnly);
  assert.equal(scope.isError, true);
  assert.match(textOf(scope), /lacks the "progression" permission/);
});

Deno.test("gw2_api: upstream's 404 names the path", async () => {
  await using app = await startTestApp();
  const guild = await call(app, { path: "/v2/guild/4BBB52AA-D768-4FC6-8EDE-C299F2822F0F" });
  assert.equal(guild.isError, true);
  assert.match(
    textOf(guild),
    /^Not found: the GW2 API has no such record at \/v2\/guild\/4BBB52AA-D768-4FC6-8EDE-C299F2822F0F\. Check the path/,
  );
  const ids = await call(app, { path: "/v2/skins", ids: [1, 2] });
  assert.match(textOf(ids), /no record at \/v2\/skins with id 1, 2/);
});

Deno.test("gw2_api refuses paths and parameters outside the API's list, with the reason", async () => {
  await using app = await startTestApp();
  const refusals: readonly [Record<string, unknown>, RegExp][] = [
    [
      { path: "/v2/secrets" },
      /^Refused: the path "\/v2\/secrets" is not an endpoint the GW2 API lists in \/v2\.json/,
    ],
    [{ path: "/v2/../x" }, /^Refused: the path "\/v2\/\.\.\/x" contains a \. or \.\. segment/],
    [{ path: "/v2/guild/%2e%2e/log" }, /contains a \. or \.\. segment/],
    [{ path: "//evil.example/v2/items" }, /^Refused: .*does not start with \/v2\//],
    [{ path: "/v2//evil.example" }, /^Refused: .*contains \/\//],
    [{ path: "https://evil.example/v2/items" }, /does not start with \/v2\//],
    [{ path: "/v2/account?access_token=ABCD" }, /^Refused: .*query string/],
    [{ path: "/v2/tokeninfo" }, /^Refused: \/v2\/tokeninfo is not read/],
    [{ path: "/v2/createsubtoken" }, /^Refused: \/v2\/createsubtoken is not read/],
    [{ path: "/v2/skins", quantity: 3 }, /quantity is read only by/],
    // Any parameter but the contract's is refused naming the path (and the argument).
    [
      { path: "/v2/skins", access_token: TEST_KEYS.full },
      /unknown argument "access_token" for the path "\/v2\/skins"/,
    ],
    [
      { path: "/v2/skins", page_size: 200 },
      /unknown argument "page_size" for the path "\/v2\/skins"/,
    ],
    [{ path: "/v2/items", id: 19721 }, /unknown argument "id" for the path "\/v2\/items"/],
  ];
  for (const [args, reason] of refusals) {
    const result = await call(app, args, TEST_KEYS.full);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.match(textOf(result), reason, JSON.stringify(args));
    assert.equal(textOf(result).includes(TEST_KEYS.full), false);
  }
  assert.deepEqual(asked(app), [], "nothing but the endpoint list was asked upstream");
  assert.equal(
    app.fake.control.requests.filter((request) => request.path === "/v2.json").length,
    1,
    "the endpoint list is read once, then cached",
  );
});

Deno.test("gw2_api: a record's own long list is cut where it is, and named", async () => {
  await using app = await startTestApp();
  const progress = await read(app, { path: "/v2/account/achievements" }, TEST_KEYS.full);
  assert.equal(records(progress).length, 50);
  const halfDone = await read(app, { path: "/v2/achievements", ids: [2268] });
  const [cosmos] = records(halfDone);
  assert.equal((cosmos?.bits as unknown[]).length, 50, "54 bits, cut at 50");
  assert.deepEqual(halfDone.cut, [{ at: "0.bits", more: 4 }]);
});

Deno.test("gw2_api: the player's key goes only to a route the list marks auth; a parameter reaches upstream inside its segment", async () => {
  await using app = await startTestApp();
  await read(app, { path: "/v2/skins", ids: [2377] }, TEST_KEYS.full);
  await call(app, { path: "/v2/guild/x@evil.example;a=b/log" }, TEST_KEYS.full);
  await read(app, { path: "/v2/account/mastery/points" }, TEST_KEYS.full);
  const sent = app.fake.control.requests.filter((request) => request.path !== "/v2.json");
  assert.deepEqual(sent.map((request) => [request.path, request.keyLabel]), [
    ["/v2/skins", undefined],
    ["/v2/guild/x%40evil.example%3Ba%3Db/log", "full"],
    ["/v2/account/mastery/points", "full"],
  ]);
  assert.ok(sent.every((request) => !/access_token|evil\.example\//.test(request.query)));
});

Deno.test("gw2_api: an answer past 8 MB is not read to its end: the read stops at the bound, before any parsing, and the tool says to ask for less", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const huge = streamedJson(3 * API_ANSWER_READ_MAX_BYTES);
  const gw2 = clientOverFake(kv, clock, fake, {
    fetch: (input, init) =>
      Promise.resolve(
        new URL(input).pathname === "/v2/skins"
          ? new Response(huge.body, { headers: { "content-type": "application/json" } })
          : fake.fetch(new Request(input, init)),
      ),
  });
  await using handler = createTestHandler({ gw2, clock });
  await using client = await connectClient(handler);
  const result = await client.callTool({ name: "gw2_api", arguments: { path: "/v2/skins" } });
  assert.equal(result.isError, true);
  assert.match(
    textOf(result),
    /^Too large: the answer of \/v2\/skins is over 8\.0 MB of JSON, more than gw2_api keeps\. Ask for a page/,
  );
  assert.ok(
    huge.pulled() <= API_ANSWER_READ_MAX_BYTES + 128 * 1024,
    `read ${huge.pulled()} of ${3 * API_ANSWER_READ_MAX_BYTES} bytes`,
  );
});
