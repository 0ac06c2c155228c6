/**
 * Bad arguments of every kind are refused with a clear message naming the problem, as a tool
 * error on both protocol revisions, and never reach the GW2 client.
 */
import assert from "node:assert/strict";
import { connectClient, createTestHandler, type Era } from "../support/app.ts";
import { StubGw2Client } from "./_stub_gw2.ts";

const HUNDRED_AND_ONE = Array.from({ length: 101 }, (_, index) => index + 1);

/** [label, arguments, expected message pattern] for every id-list tool. */
const ID_LIST_CASES: [string, Record<string, unknown>, RegExp][] = [
  ["ids missing", {}, /ids: expected a list of 1 to 100 \w+ ids such as \[19721\], not nothing/],
  ["ids a string", { ids: "19721" }, /expected a list .*not the string "19721"/],
  ["ids a number", { ids: 19721 }, /expected a list .*not 19721/],
  ["ids empty", { ids: [] }, /the list is empty: give 1 to 100 \w+ ids/],
  [
    "negative id",
    { ids: [-1] },
    /ids\.0: an? \w+ id must be a positive whole number such as 19721, not -1/,
  ],
  ["zero id", { ids: [19721, 0] }, /ids\.1: .*positive whole number.*not 0/],
  ["fractional id", { ids: [1.5] }, /ids\.0: .*positive whole number.*not 1\.5/],
  ["string id", { ids: ["19721"] }, /not the string "19721": send numbers, not strings/],
  ["null id", { ids: [null] }, /ids\.0: .*not null/],
  ["object id", { ids: [{ id: 1 }] }, /ids\.0: .*not an object/],
  [
    "101 ids",
    { ids: HUNDRED_AND_ONE },
    /too many ids: at most MAX_IDS = 100 per call, got 101; split/,
  ],
  [
    "unknown argument",
    { ids: [19721], id: 19721 },
    /unknown argument "id": this tool accepts only ids/,
  ],
  [
    "credential-like argument",
    { ids: [19721], access_token: "x" },
    /unknown argument "access_token"/,
  ],
];

const SEARCH_CASES: [string, Record<string, unknown>, RegExp][] = [
  ["neither field", {}, /give exactly one of input \(recipes using the item\) or output/],
  ["both fields", { input: 19721, output: 19721 }, /exactly one of input or output, not both/],
  ["string id", { input: "19721" }, /input: .*not the string "19721": send numbers/],
  ["negative id", { output: -5 }, /output: .*positive whole number.*not -5/],
  ["fractional id", { input: 2.5 }, /input: .*not 2\.5/],
  ["null id", { output: null }, /output: .*not null/],
  ["id list", { output: [19721] }, /output: .*not an array/],
  [
    "unknown argument",
    { item: 19721 },
    /unknown argument "item": this tool accepts only input, output/,
  ],
];

for (const era of ["2025", "2026"] satisfies Era[]) {
  Deno.test(`tools/call refuses bad arguments before any upstream call (${era})`, async (t) => {
    const gw2 = new StubGw2Client();
    await using handler = createTestHandler({ gw2 });
    await using client = await connectClient(handler, { era });
    for (const tool of ["gw2_items", "gw2_recipes", "gw2_prices"]) {
      for (const [label, args, pattern] of ID_LIST_CASES) {
        await t.step(`${tool}: ${label}`, async () => {
          const result = await client.callTool({ name: tool, arguments: args });
          assert.equal(result.isError, true);
          assert.equal(result.structuredContent, undefined);
          assert.equal(result.content.length, 1);
          const [block] = result.content;
          assert.equal(block?.type, "text");
          const text = block?.type === "text" ? block.text : "";
          assert.match(text, new RegExp(`Invalid arguments for tool ${tool}: `));
          assert.match(text, pattern);
        });
      }
    }
    for (const [label, args, pattern] of SEARCH_CASES) {
      await t.step(`gw2_recipe_search: ${label}`, async () => {
        const result = await client.callTool({ name: "gw2_recipe_search", arguments: args });
        assert.equal(result.isError, true);
        const [block] = result.content;
        assert.match(block?.type === "text" ? block.text : "", pattern);
      });
    }
    assert.equal(gw2.callCount, 0, "no bad call reached the GW2 client");
  });
}

Deno.test("tools/call accepts the boundary values: 1 and 100 ids, either search field", async () => {
  const gw2 = new StubGw2Client();
  await using handler = createTestHandler({ gw2 });
  await using client = await connectClient(handler);
  const hundred = HUNDRED_AND_ONE.slice(0, 100).map((id) => id + 19621);
  for (
    const [name, args] of [
      ["gw2_items", { ids: [19721] }],
      ["gw2_items", { ids: hundred }],
      ["gw2_recipe_search", { input: 19976 }],
      ["gw2_recipe_search", { output: 19721 }],
    ] as const
  ) {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, undefined, `${name} ${JSON.stringify(result.content)}`);
  }
  assert.deepEqual(gw2.calls.map((call) => call.method), [
    "items",
    "items",
    "searchRecipes",
    "searchRecipes",
  ]);
});

Deno.test("tools/call on an unknown tool is a JSON-RPC error naming it (both eras)", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  for (const era of ["2025", "2026"] satisfies Era[]) {
    await using client = await connectClient(handler, { era });
    await assert.rejects(
      () => client.callTool({ name: "gw2_nope", arguments: {} }),
      /Tool gw2_nope not found/,
    );
  }
});

Deno.test("a tool without parameters says so when given an argument, in a whole sentence", async () => {
  const gw2 = new StubGw2Client();
  await using handler = createTestHandler({ gw2 });
  await using client = await connectClient(handler);
  const refusal = async (name: string) => {
    const result = await client.callTool({ name, arguments: { ids: [19721] } });
    assert.equal(result.isError, true);
    return result.content.map((block) => block.type === "text" ? block.text : "").join("");
  };
  assert.match(
    await refusal("priory_account"),
    /unknown argument "ids": this tool takes no arguments: call it with \{\}$/,
  );
  // The wallet takes only a language: it names it.
  assert.match(
    await refusal("priory_account_wallet"),
    /unknown argument "ids": this tool accepts only lang$/,
  );
  assert.equal(gw2.calls.length, 0);
});
