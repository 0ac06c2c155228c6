/**
 * The prompts over the real stack on both protocol revisions: what `prompts/list` advertises and
 * what it costs, what `prompts/get` expands to (every tool it names exists), and the legendary
 * and item name completions.
 */
import assert from "node:assert/strict";
import { PROMPTS_TOKEN_BUDGET } from "../../src/prompts/mod.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import {
  connectClient,
  createTestHandler,
  type Era,
  mcpPost,
  modernPost,
  readRpc,
  startTestApp,
} from "../support/app.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";

const ERAS = ["2025", "2026"] satisfies Era[];
const TOOL_NAMES = new Set(TOOLS.map((tool) => tool.name));

type Message = { role: string; content: { type: string; text?: string } };

function textOf(messages: readonly Message[]): string {
  assert.equal(messages.length, 1, "one message");
  const [message] = messages;
  assert.equal(message?.role, "user");
  assert.equal(message?.content.type, "text");
  return message?.content.text ?? "";
}

/** The tool names a prompt's text mentions. */
function toolsNamed(text: string): string[] {
  return [...new Set(text.match(/\b(?:gw2|priory)_[a-z_]+/g) ?? [])];
}

Deno.test("prompts/list: five plans, every argument optional, within 500 tokens on both revisions", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  const legacy = await readRpc(
    await handler(mcpPost({ jsonrpc: "2.0", id: 1, method: "prompts/list" })),
  );
  const modern = await readRpc(await handler(modernPost("prompts/list")));
  for (const [era, message] of [["2025", legacy], ["2026", modern]] as const) {
    // Tokens as the contract counts them: UTF-8 bytes / 4 ("1–250"'s dash is 3 bytes, 1 code unit).
    const tokens = new TextEncoder().encode(JSON.stringify(message)).byteLength / 4;
    assert.ok(tokens <= PROMPTS_TOKEN_BUDGET, `${era}: prompts/list is ${tokens} tokens`);
    const { prompts } = message.result as {
      prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[];
    };
    assert.deepEqual(prompts.map((prompt) => prompt.name), [
      "plan_legendary",
      "best_legendary",
      "craft_or_buy",
      "plan_day",
      "check_trading_post",
    ]);
    assert.deepEqual(
      prompts.map((prompt) => prompt.arguments?.map((argument) => argument.name)),
      [
        ["legendary", "lang"],
        ["limit", "lang"],
        ["item", "quantity", "lang"],
        ["lang"],
        ["window", "lang"],
      ],
    );
    for (const prompt of prompts) {
      for (const argument of prompt.arguments ?? []) assert.equal(argument.required, false);
    }
  }
  assert.equal(PROMPTS_TOKEN_BUDGET, 500, "the issue's ceiling");
});

for (const era of ERAS) {
  Deno.test(`prompts/get expands each plan into the tools to call (${era})`, async (t) => {
    await using handler = createTestHandler({ gw2: new StubGw2Client() });
    await using client = await connectClient(handler, { era });
    const cases = [
      {
        name: "plan_legendary",
        arguments: { legendary: "Sunrise" },
        says: ['"Sunrise"', "priory_recipe_tree", "useAccount: true", "toBuy"],
      },
      {
        name: "best_legendary",
        arguments: { limit: "3" },
        says: ["priory_legendary_ranking with limit 3", "priory_recipe_tree", "partial"],
      },
      {
        name: "craft_or_buy",
        arguments: { item: "Glob of Ectoplasm", quantity: "10" },
        says: [
          '"Glob of Ectoplasm" (10 units)',
          "priory_item_search",
          "quantity 10",
          "rootBuyPrice",
        ],
      },
      {
        name: "plan_day",
        arguments: {},
        says: [
          "priory_today",
          "X-GW2-Key header",
          "unread parts",
          "stale",
          "priory_wizards_vault",
          "Astral Acclaim affords",
        ],
      },
      {
        name: "check_trading_post",
        arguments: { window: "30d" },
        says: ['priory_trading_post with window "30d"', "undercut", "outbid", "delivery box"],
      },
    ];
    for (const prompt of cases) {
      await t.step(prompt.name, async () => {
        const { messages } = await client.getPrompt(prompt);
        const text = textOf(messages as Message[]);
        for (const phrase of prompt.says) assert.ok(text.includes(phrase), `says ${phrase}`);
        const named = toolsNamed(text);
        assert.ok(named.length >= 2, "names the tools to use");
        for (const tool of named) assert.ok(TOOL_NAMES.has(tool), `${tool} is a registered tool`);
      });
    }
    await t.step("without arguments, the plan asks", async () => {
      for (const name of ["plan_legendary", "craft_or_buy"]) {
        const { messages } = await client.getPrompt({ name });
        assert.match(textOf(messages as Message[]), /ask me which/);
      }
      const { messages } = await client.getPrompt({ name: "best_legendary" });
      assert.match(textOf(messages as Message[]), /with limit 5 /, "the default");
    });
    await t.step("numbers out of range fall back to the default", async () => {
      for (const limit of ["0", "26", "2.5", "many"]) {
        const { messages } = await client.getPrompt({
          name: "best_legendary",
          arguments: { limit },
        });
        assert.match(textOf(messages as Message[]), /with limit 5 /, limit);
      }
      const { messages } = await client.getPrompt({
        name: "craft_or_buy",
        arguments: { item: "x", quantity: "251" },
      });
      assert.match(textOf(messages as Message[]), /quantity 1\./);
      for (const window of ["", "2d", "week"]) {
        const trading = await client.getPrompt({
          name: "check_trading_post",
          arguments: { window },
        });
        assert.match(textOf(trading.messages as Message[]), /window "7d"/, window);
      }
    });
    await t.step(
      "each plan takes the player's language: the tools' names and the answer in it",
      async () => {
        for (
          const name of [
            "plan_legendary",
            "best_legendary",
            "craft_or_buy",
            "plan_day",
            "check_trading_post",
          ]
        ) {
          const { messages } = await client.getPrompt({ name, arguments: { lang: "de" } });
          const text = textOf(messages as Message[]);
          assert.match(text, /Pass lang: "de" to every tool that takes it, and answer in German/);
        }
        for (const lang of ["en", "it", ""]) {
          const { messages } = await client.getPrompt({
            name: "best_legendary",
            arguments: { lang },
          });
          assert.doesNotMatch(textOf(messages as Message[]), /lang:/, `${lang}: nothing to add`);
        }
        const { messages } = await client.getPrompt({
          name: "plan_legendary",
          arguments: { legendary: "Düsternis", lang: "FR-fr" },
        });
        assert.match(textOf(messages as Message[]), /"Düsternis".*lang: "fr".*French/s);
        const codes = await client.complete({
          ref: { type: "ref/prompt", name: "craft_or_buy" },
          argument: { name: "lang", value: "e" },
        });
        assert.deepEqual(codes.completion.values, ["en", "es"]);
      },
    );
    await t.step("an unknown prompt is an error", async () => {
      await assert.rejects(client.getPrompt({ name: "nope" }), /not found/);
    });
  });

  Deno.test(`completion/complete completes legendary names (${era})`, async () => {
    await using handler = createTestHandler({ gw2: new StubGw2Client() });
    await using client = await connectClient(handler, { era });
    const complete = async (value: string) =>
      (await client.complete({
        ref: { type: "ref/prompt", name: "plan_legendary" },
        argument: { name: "legendary", value },
      })).completion.values;
    assert.equal((await complete("sunr"))[0], "Sunrise");
    assert.equal((await complete("SUNRISE"))[0], "Sunrise", "any case");
    assert.ok((await complete("sunrsie")).includes("Sunrise"), "a typo");
    assert.deepEqual((await complete("the bif"))[0], "The Bifrost");
    const all = await complete("");
    assert.equal(all.length, 20);
    assert.equal(new Set(all).size, all.length, "no name twice");
    assert.deepEqual(await complete("zzzzqqq"), []);
  });

  Deno.test(`completion/complete completes item names from the name index (${era})`, async () => {
    await using app = await startTestApp();
    await app.names.putMany([
      { id: 19721, name: "Glob of Ectoplasm", rarity: "Exotic", type: "CraftingMaterial" },
      { id: 19684, name: "Mithril Ingot", rarity: "Basic", type: "CraftingMaterial" },
      { id: 46731, name: "Glob of Dark Matter", rarity: "Exotic", type: "CraftingMaterial" },
    ]);
    await using client = await connectClient(app.handler, { era });
    const complete = async (name: string, value: string) =>
      (await client.complete({
        ref: { type: "ref/prompt", name: "craft_or_buy" },
        argument: { name, value },
      })).completion.values;
    assert.deepEqual(await complete("item", "glob of ec"), ["Glob of Ectoplasm"]);
    assert.deepEqual(await complete("item", "glob"), ["Glob of Ectoplasm", "Glob of Dark Matter"]);
    assert.deepEqual(await complete("item", ""), [], "nothing typed, nothing offered");
    assert.deepEqual(await complete("quantity", "1"), [], "not a completable argument");
    await assert.rejects(
      client.complete({
        ref: { type: "ref/prompt", name: "nope" },
        argument: { name: "item", value: "glob" },
      }),
      /not found/,
    );
  });
}
