/**
 * What a signed-in player's model reads: in the public mode the key comes with the sign-in, so
 * the server's instructions and `tools/list` never tell the model about an `X-GW2-Key` header
 * it cannot set (claude.ai, ChatGPT and the other hosts of the public mode send no custom
 * header). The token mode's wording is the snapshot's, unchanged (`tests/mcp/`).
 */

import assert from "node:assert/strict";
import { TEST_KEYS } from "../fake_gw2/mod.ts";
import { modernPost, readRpc, startTestApp } from "../support/app.ts";
import { PUBLIC_URL, signIn, startPublicApp } from "../support/oauth.ts";

Deno.test("a signed-in player's model reads no X-GW2-Key: the instructions and tools/list speak of the sign-in", async () => {
  await using app = await startPublicApp();
  const { accessToken } = await signIn(app.handler, TEST_KEYS.full);
  const ask = async (method: string) =>
    await readRpc(
      await app.handler(
        new Request(
          `${PUBLIC_URL}/mcp`,
          modernPost(method, {}, { authorization: `Bearer ${accessToken}` }),
        ),
      ),
    );
  const discover = (await ask("server/discover")).result as { instructions: string };
  assert.doesNotMatch(discover.instructions, /X-GW2-Key/);
  assert.match(discover.instructions, /signing in/);
  assert.ok(discover.instructions.length / 4 <= 150, "within the instructions' 150 tokens");
  const listed = JSON.stringify((await ask("tools/list")).result);
  assert.doesNotMatch(listed, /X-GW2-Key/, "no description or input schema names the header");
  // The contract's ceiling with "The whole account"'s tools (5,000 before them).
  assert.ok(listed.length / 4 < 7_000, `tools/list is ${listed.length / 4} tokens`);
  // The same tools, saying where the key comes from instead.
  await using tokenMode = await startTestApp();
  const tokenList = JSON.stringify(
    (await readRpc(await tokenMode.handler(modernPost("tools/list")))).result,
  );
  assert.match(tokenList, /X-GW2-Key/);
  const names = (text: string) =>
    (JSON.parse(text) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
  assert.deepEqual(names(listed), names(tokenList));
  assert.equal(
    (listed.match(/sign-in/g) ?? []).length,
    (tokenList.match(/X-GW2-Key/g) ?? []).length,
    "every mention of the header now names the sign-in",
  );
});

Deno.test("a signed-in player's prompts name the key of the sign-in, never an X-GW2-Key header", async () => {
  await using app = await startPublicApp();
  const { accessToken } = await signIn(app.handler, TEST_KEYS.full);
  await using tokenMode = await startTestApp();
  const texts = async (handler: (request: Request) => Promise<Response>, headers = {}) => {
    const out: string[] = [];
    for (
      const name of [
        "plan_legendary",
        "best_legendary",
        "craft_or_buy",
        "plan_day",
        "check_trading_post",
      ]
    ) {
      const request = new Request(
        `${PUBLIC_URL}/mcp`,
        modernPost("prompts/get", { name, arguments: {} }, headers),
      );
      const { result } = await readRpc(await handler(request));
      const { messages } = result as { messages: { content: { text: string } }[] };
      out.push(messages.map((message) => message.content.text).join("\n"));
    }
    return out.join("\n");
  };
  const signedIn = await texts(app.handler, { authorization: `Bearer ${accessToken}` });
  assert.doesNotMatch(signedIn, /X-GW2-Key/);
  assert.match(signedIn, /if it says my key lacks a permission, call it without useAccount/);
  assert.match(signedIn, /reads my holdings through the key of my sign-in/);
  assert.match(signedIn, /reads my account through the key of my sign-in/, "plan_day's");
  assert.match(signedIn, /sign in again with a key that has it/);
  const header = await texts(tokenMode.handler);
  assert.equal((header.match(/X-GW2-Key header/g) ?? []).length, 4, "the token mode's as before");
});
