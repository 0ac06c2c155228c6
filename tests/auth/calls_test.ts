/**
 * Tool calls in the public mode: the key comes with the sign-in (a sent `X-GW2-Key` is
 * ignored), a key's missing permission tells the player to sign in again, each player has a rate
 * of tool calls (429 with `Retry-After` past it), and a sign-in left unused for 90 days is gone.
 */

import assert from "node:assert/strict";
import { TEST_KEYS } from "../fake_gw2/mod.ts";
import { modernPost, type TestApp, textOf } from "../support/app.ts";
import {
  answerConsent,
  authorizeUrl,
  CALLBACK,
  openConsent,
  pkce,
  postForm,
  PUBLIC_ENV,
  PUBLIC_URL,
  readConsent,
  redirectParams,
  registeredClient,
  RESOURCE,
  signIn,
  startPublicApp,
} from "../support/oauth.ts";

async function call(
  app: TestApp,
  token: string,
  name: string,
  args: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  const request = modernPost("tools/call", { name, arguments: args }, {
    authorization: `Bearer ${token}`,
    ...headers,
  });
  return await app.handler(new Request(`${PUBLIC_URL}/mcp`, request));
}

Deno.test("with an access token the key is the sign-in's: X-GW2-Key is ignored", async () => {
  await using app = await startPublicApp();
  const { accessToken } = await signIn(app.handler, TEST_KEYS.veteran);
  const response = await call(app, accessToken, "priory_account", {}, {
    "x-gw2-key": TEST_KEYS.full,
  });
  const body = await response.json();
  assert.equal(body.result.structuredContent.name, "Priory Veteran.1907");
});

Deno.test("a permission the signed-in key lacks is named, with the remedy: sign in again", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const { verifier, challenge } = await pkce();
  const page = await openConsent(
    app.handler,
    authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
  );
  const told = await readConsent(
    await answerConsent(app.handler, page, { decision: "allow", key: TEST_KEYS.noWallet }),
  );
  const allowed = await answerConsent(app.handler, told, {
    decision: "allow",
    key: TEST_KEYS.noWallet,
  });
  const tokens = await postForm(app.handler, "/token", {
    grant_type: "authorization_code",
    code: redirectParams(allowed).get("code") ?? "",
    code_verifier: verifier,
    redirect_uri: CALLBACK,
    client_id: clientId,
    resource: RESOURCE,
  });
  const response = await call(app, String(tokens.body.access_token), "priory_account_wallet");
  const { result } = await response.json();
  assert.equal(result.isError, true);
  assert.match(textOf(result), /lacks the "wallet" permission/);
  assert.match(textOf(result), /sign in again/);
  assert.doesNotMatch(textOf(result), /X-GW2-Key/, "a signed-in player has no header to fix");
});

Deno.test("each player has a rate of tool calls: past it 429 with Retry-After, other players unaffected", async () => {
  await using app = await startPublicApp({
    env: { ...PUBLIC_ENV, PRIORY_GRANT_CALLS_BURST: "3", PRIORY_GRANT_CALLS_PER_MINUTE: "6" },
  });
  const [greedy, other] = await Promise.all([
    signIn(app.handler, TEST_KEYS.full),
    signIn(app.handler, TEST_KEYS.veteran),
  ]);
  for (let n = 0; n < 3; n++) {
    const response = await call(app, greedy.accessToken, "gw2_items", { ids: [19721] });
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
  const refused = await call(app, greedy.accessToken, "gw2_items", { ids: [19721] });
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get("retry-after"), "10", "six a minute: one every 10 s");
  const body = await refused.json();
  assert.equal(body.id, 1);
  assert.match(body.error.message, /Retry in 10 s/);
  const unaffected = await call(app, other.accessToken, "gw2_items", { ids: [19721] });
  assert.equal(unaffected.status, 200);
  await unaffected.body?.cancel();
  // Listing tools is not a tool call.
  const listed = await app.handler(
    new Request(
      `${PUBLIC_URL}/mcp`,
      modernPost("tools/list", {}, {
        authorization: `Bearer ${greedy.accessToken}`,
      }),
    ),
  );
  assert.equal(listed.status, 200);
  await listed.body?.cancel();
  app.clock.advance(10_000);
  const later = await call(app, greedy.accessToken, "gw2_items", { ids: [19721] });
  assert.equal(later.status, 200);
  await later.body?.cancel();
});

Deno.test("a sign-in not refreshed for 90 days is gone, and its key with it", async () => {
  await using app = await startPublicApp();
  const signedIn = await signIn(app.handler, TEST_KEYS.full);
  const refresh = (token: string) =>
    postForm(app.handler, "/token", {
      grant_type: "refresh_token",
      refresh_token: token,
      client_id: signedIn.clientId,
    });
  app.clock.advance(89 * 24 * 3_600_000);
  const kept = await refresh(signedIn.refreshToken);
  assert.equal(kept.status, 200, "89 days later a refresh keeps it alive");
  app.clock.advance(90 * 24 * 3_600_000 + 1);
  const expired = await refresh(String(kept.body.refresh_token));
  assert.equal(expired.body.error, "invalid_grant");
  const grants = await Array.fromAsync(app.kv.list({ prefix: ["auth", "grant"] }));
  assert.deepEqual(grants, [], "the grant, and the sealed key in it, are deleted");
});

Deno.test("a grant's calls beyond PRIORY_GRANT_CALLS_AT_ONCE wait for one of its own to finish", async () => {
  await using app = await startPublicApp({
    env: { ...PUBLIC_ENV, PRIORY_GRANT_CALLS_AT_ONCE: "1" },
    latencyOnClock: true,
  });
  const [player, other] = await Promise.all([
    signIn(app.handler, TEST_KEYS.full),
    signIn(app.handler, TEST_KEYS.veteran),
  ]);
  app.fake.control.setLatency(1_000, "/v2/items");
  const seen = app.fake.control.requests.length;
  const first = call(app, player.accessToken, "gw2_items", { ids: [19976] });
  await app.fake.control.waitForRequests(seen + 1);
  const second = call(app, player.accessToken, "gw2_items", { ids: [19975] });
  const elsewhere = call(app, other.accessToken, "gw2_items", { ids: [19974] });
  await app.fake.control.waitForRequests(seen + 2);
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
  const paths = app.fake.control.requests.slice(seen).map((request) =>
    request.path + request.query
  );
  assert.equal(
    paths.length,
    2,
    `the player's second call waits; the other player's does not: ${paths}`,
  );
  assert.ok(!paths.some((path) => path.includes("19975")));
  app.clock.advance(1_000);
  await first.then((response) => response.body?.cancel());
  await app.fake.control.waitForRequests(seen + 3);
  app.clock.advance(1_000);
  for (const response of await Promise.all([second, elsewhere])) {
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
});

Deno.test("the rate of tool calls is the player's: signing in again with the same account buys no more calls", async () => {
  await using app = await startPublicApp({
    env: { ...PUBLIC_ENV, PRIORY_GRANT_CALLS_BURST: "3", PRIORY_GRANT_CALLS_PER_MINUTE: "6" },
  });
  // The same GW2 account, signed in three times (three apps, or one script looping on the page).
  const grants = [];
  for (let n = 0; n < 3; n++) grants.push(await signIn(app.handler, TEST_KEYS.full));
  const statuses = [];
  for (const grant of grants) {
    for (let n = 0; n < 2; n++) {
      const response = await call(app, grant.accessToken, "gw2_items", { ids: [19721] });
      statuses.push(response.status);
      await response.body?.cancel();
    }
  }
  assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429], "one burst of 3 for the account");
});

Deno.test("a key GW2 no longer accepts ends the sign-in: the next request is refused and the app must sign in again", async () => {
  await using app = await startPublicApp();
  const signedIn = await signIn(app.handler, TEST_KEYS.full);
  // The player deletes the key at ArenaNet.
  app.fake.control.injectFault("invalid_key", { times: Infinity });
  const response = await call(app, signedIn.accessToken, "priory_account_wallet");
  const { result } = await response.json();
  assert.equal(result.isError, true);
  assert.match(textOf(result), /this sign-in has ended/);
  assert.match(textOf(result), /~\/\.mcp-auth/, "says how for mcp-remote, which keeps its sign-in");
  const next = await call(app, signedIn.accessToken, "priory_account");
  assert.equal(next.status, 401, "the app's next request is refused: it signs in again");
  await next.body?.cancel();
  const refreshed = await postForm(app.handler, "/token", {
    grant_type: "refresh_token",
    refresh_token: signedIn.refreshToken,
    client_id: signedIn.clientId,
  });
  assert.equal(refreshed.body.error, "invalid_grant", "a refresh cannot keep the dead sign-in");
  assert.deepEqual(await Array.fromAsync(app.kv.list({ prefix: ["auth", "grant"] })), []);
});
