import assert from "node:assert/strict";
import { MAX_QUERY_LENGTH, parseSearchQuery } from "../../src/search/query.ts";

Deno.test("parseSearchQuery() takes a name, trimmed", () => {
  assert.deepEqual(parseSearchQuery("  glob of ecto "), { kind: "name", text: "glob of ecto" });
  assert.deepEqual(parseSearchQuery("x".repeat(MAX_QUERY_LENGTH)), {
    kind: "name",
    text: "x".repeat(MAX_QUERY_LENGTH),
  });
});

Deno.test("parseSearchQuery() decodes an item chat link to its id", () => {
  assert.deepEqual(parseSearchQuery("[&AgEJTQAA]"), { kind: "link", id: 19721 });
  assert.deepEqual(parseSearchQuery(" [&AgH1WQAA] "), { kind: "link", id: 23029 });
  // A stack of 13 with upgrades still names one item.
  assert.deepEqual(parseSearchQuery("[&Ag3+wAAA]"), { kind: "link", id: 49406 });
});

Deno.test("parseSearchQuery() refuses what cannot be searched, saying what to send", async (t) => {
  const cases: [string, string, RegExp][] = [
    ["empty", "", /^the query is empty: give an item name .*\[&AgEJTQAA\]/],
    ["whitespace only", " \t\n ", /^the query is empty/],
    [
      "over-long",
      "a".repeat(MAX_QUERY_LENGTH + 1),
      /^the query is 201 characters long, at most 200/,
    ],
    ["no letter or digit", "!!! ...", /^the query has no letter or digit: give an item name/],
    ["a skill link", "[&BucCAAA=]", /^that is a skill chat link, not an item link: .*item's name/],
    [
      "a recipe link",
      "[&CZccAAA=]",
      /^that is a recipe chat link, .*read recipe 7319 with gw2_recipes/,
    ],
    ["a truncated link", "[&AgEJTQAA", /is not a valid chat link: copy the whole link/],
    ["a link too short", "[&AgE=]", /is not a valid chat link/],
    ["an unknown header", "[&AA==]", /is not a valid chat link/],
  ];
  for (const [label, query, pattern] of cases) {
    await t.step(label, () => {
      const parsed = parseSearchQuery(query);
      assert.equal(parsed.kind, "refused");
      assert.match(parsed.kind === "refused" ? parsed.reason : "", pattern);
    });
  }
});
