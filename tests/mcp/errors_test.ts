import assert from "node:assert/strict";
import { DeadlineExceededError } from "../../src/async/deadline.ts";
import {
  Gw2KeyRejectedError,
  Gw2NotFoundError,
  Gw2RateLimitedError,
  Gw2ScopeMissingError,
  Gw2StorageError,
  Gw2UpstreamError,
  type UpstreamFailureReason,
} from "../../src/gw2/errors.ts";
import { NotCraftableError } from "../../src/tree/pricing.ts";
import { classifyFailure, type KeySource } from "../../src/mcp/errors.ts";
import { NameIndexUnavailableError } from "../../src/search/name_index.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import { MissingGw2KeyError, UnexpandedGw2KeyError } from "../../src/tools/types.ts";

/** The text a call of `tool` (its definition's hints; any other name: none) answers with. */
function toolErrorText(error: unknown, tool: string, keySource?: KeySource): string {
  const hints = TOOLS.find((definition) => definition.name === tool)?.errorHints;
  return classifyFailure(error, {
    ...(hints === undefined ? {} : { hints }),
    ...(keySource === undefined ? {} : { keySource }),
  }).text;
}

/** Nothing model-facing may carry a stack, a path, the upstream URL or a key. */
function assertClean(text: string): void {
  assert.doesNotMatch(text, /api\.guildwars2\.com|\/v2\/|file:|\.ts\b|\bat \S+:\d+|Error:/);
}

Deno.test("toolErrorText() says rate limited and when to retry", () => {
  const text = toolErrorText(new Gw2RateLimitedError(12_400), "gw2_items");
  assert.match(text, /^Rate limited: /);
  assert.match(text, /Retry in 13 s/);
  assertClean(text);
});

Deno.test("toolErrorText(): the advice beside a used-up budget fits the tool", async (t) => {
  const cases: [string, RegExp][] = [
    ["gw2_items", /Retry in 2 s, and batch ids into one call \(up to MAX_IDS = 100\)/],
    ["priory_account_materials", /batch ids into one call/],
    [
      "priory_legendary_ranking",
      /Retry in 2 s \(a cold ranking .*cached, so the retry.*asks for less\.$/,
    ],
    ["priory_recipe_tree", /Retry in 2 s; the records already read are cached/],
    ["priory_account", /Retry in 2 s\.$/],
  ];
  for (const [tool, pattern] of cases) {
    await t.step(tool, () => {
      const text = toolErrorText(new Gw2RateLimitedError(1_500), tool);
      assert.match(text, pattern);
      if (!tool.startsWith("gw2_") && tool !== "priory_account_materials") {
        assert.doesNotMatch(text, /batch ids/, "a tool without ids cannot batch them");
      }
      assertClean(text);
    });
  }
});

Deno.test("toolErrorText() names the missing ids and what to check, per tool", async (t) => {
  const cases: [string, RegExp][] = [
    ["gw2_items", /^Not found: the GW2 API has no item with id 1, 2\. Check the ids/],
    ["gw2_recipes", /no recipe with id 1, 2\. .*recipe ids, not item ids.*gw2_recipe_search/],
    ["gw2_prices", /no Trading Post price with id 1, 2\. Untradeable items/],
    ["priory_future", /no item with id 1, 2\. Check the ids/],
  ];
  for (const [tool, pattern] of cases) {
    await t.step(tool, () => {
      const text = toolErrorText(new Gw2NotFoundError([1, 2], "item"), tool);
      assert.match(text, pattern);
      assertClean(text);
    });
  }
  await t.step("a long id list is bounded", () => {
    const ids = Array.from({ length: 100 }, (_, index) => index + 1);
    const text = toolErrorText(new Gw2NotFoundError(ids), "gw2_items");
    assert.match(text, /1, 2, .*, 20 and 80 more\./);
  });
});

Deno.test("toolErrorText() keeps the three key failures distinct", () => {
  const missing = toolErrorText(new MissingGw2KeyError(), "priory_account");
  const rejected = toolErrorText(new Gw2KeyRejectedError(), "priory_account");
  const scope = toolErrorText(new Gw2ScopeMissingError("inventories"), "priory_account_materials");
  assert.match(missing, /^No GW2 API key: .*"X-GW2-Key: <your GW2 API key>".*client configuration/);
  assert.match(rejected, /^GW2 API key rejected: .*check it, or create a new one/i);
  assert.match(rejected, /\$\{VAR\}/);
  assert.doesNotMatch(rejected, /scope|permission/);
  assert.match(scope, /^GW2 API key lacks the "inventories" permission: /);
  assert.notEqual(missing, rejected);
  for (const text of [missing, rejected, scope]) assertClean(text);
});

Deno.test("toolErrorText() names every missing scope a pre-check found", () => {
  const text = toolErrorText(
    new Gw2ScopeMissingError("inventories", "characters"),
    "priory_legendary_ranking",
  );
  assert.match(text, /^GW2 API key lacks the "inventories", "characters" permissions: /);
  assert.match(text, /create a key with "inventories", "characters" ticked/);
  assertClean(text);
});

Deno.test("toolErrorText() tells an unexpanded variable from a missing or rejected key", () => {
  const text = toolErrorText(new UnexpandedGw2KeyError(), "priory_account");
  assert.match(text, /X-GW2-Key header holds a "\$" variable reference, not a key/);
  assert.match(text, /\$\{VAR\} substitution did not happen/);
  assert.notEqual(text, toolErrorText(new MissingGw2KeyError(), "priory_account"));
  assert.notEqual(text, toolErrorText(new Gw2KeyRejectedError(), "priory_account"));
  assertClean(text);
});

Deno.test("toolErrorText() explains each upstream failure without URL or stack", async (t) => {
  const reasons: [UpstreamFailureReason, RegExp][] = [
    ["timeout", /did not answer in time\. Retry/],
    ["network", /could not be reached\. Retry/],
    ["server_error", /failing on its side\. Retry/],
    ["not_active", /switched this GW2 API endpoint off \("API not active"\)/],
    ["disabled", /disabled the whole GW2 API/],
    ["malformed", /could not be read\. Retry once/],
    ["unexpected_status", /unexpected status\. Retry later/],
  ];
  for (const [reason, pattern] of reasons) {
    await t.step(reason, () => {
      const text = toolErrorText(new Gw2UpstreamError(reason, 503), "gw2_items");
      assert.match(text, /^GW2 API unavailable \(HTTP 503\): /);
      assert.match(text, pattern);
      assertClean(text);
    });
  }
  await t.step("without a status", () => {
    assert.match(
      toolErrorText(new Gw2UpstreamError("timeout"), "gw2_items"),
      /^GW2 API unavailable: /,
    );
  });
});

Deno.test("toolErrorText() never echoes an unexpected error", () => {
  const error = new TypeError("Cannot read x at file:///work/main/src/secret.ts:1:1");
  const text = toolErrorText(error, "gw2_items");
  assert.match(text, /^Internal error: /);
  assert.doesNotMatch(text, /secret|file:|TypeError/);
});

Deno.test("toolErrorText() names a resource without ids by its kind", () => {
  const text = toolErrorText(new Gw2NotFoundError([], "character"), "priory_future");
  assert.match(text, /^Not found: the GW2 API has no such character\. /);
  assertClean(text);
});

Deno.test("toolErrorText() says a root without a recipe is not craftable, naming it", () => {
  const named = toolErrorText(
    new NotCraftableError(19721, "Glob of Ectoplasm"),
    "priory_recipe_tree",
  );
  assert.match(named, /^Not craftable: item 19721 \(Glob of Ectoplasm\) has no recipe/);
  assert.match(named, /gw2_prices/);
  assert.match(toolErrorText(new NotCraftableError(5), "priory_recipe_tree"), /item 5 has no/);
});

Deno.test("toolErrorText() names a storage failure as the server's, not GW2's", () => {
  const text = toolErrorText(new Gw2StorageError(), "gw2_items");
  assert.match(text, /^Server storage unavailable: .*Deno KV.*the GW2 API was not asked\. Retry/);
  assert.doesNotMatch(text, /could not be reached/);
  assertClean(text);
});

Deno.test("toolErrorText() says a call ran out of time, and what to do", () => {
  const text = toolErrorText(new DeadlineExceededError(15_000), "priory_future");
  assert.match(text, /^Timed out: .*Retry in a minute\.$/);
  assertClean(text);
});

Deno.test("classifyFailure(): one verdict per failure, its log level fitting whose trouble it is", async (t) => {
  const cases: [string, unknown, string, "info" | "warn" | "error"][] = [
    ["the player's missing key", new MissingGw2KeyError(), "missing_gw2_key", "info"],
    ["upstream's rate limit", new Gw2RateLimitedError(1_000), "rate_limited", "info"],
    ["upstream's outage", new Gw2UpstreamError("server_error", 503), "upstream", "info"],
    ["the deadline", new DeadlineExceededError(15_000), "deadline", "warn"],
    // The name index's storage failed: the server's trouble, not a crash of the tool.
    [
      "the name index",
      new NameIndexUnavailableError(new Error("kv")),
      "name_index_unavailable",
      "warn",
    ],
    ["a bug", new TypeError("x is undefined"), "crashed", "error"],
  ];
  for (const [what, error, kind, level] of cases) {
    await t.step(what, () => {
      const failure = classifyFailure(error);
      assert.deepEqual([failure.kind, failure.level], [kind, level]);
      assertClean(failure.text);
    });
  }
  assert.equal(classifyFailure(new Gw2UpstreamError("timeout")).reason, "timeout");
});
