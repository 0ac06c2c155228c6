/**
 * Sign in with gw2.me end to end against the fake gw2.me: consent page -> gw2.me -> back ->
 * code -> tokens -> an account tool reading through a subtoken; subtokens re-minted when they
 * expire (refreshing gw2.me's rotating token when its access token is gone); revocation reaching
 * gw2.me; and the attacks and failures: a forged, swapped or replayed state, a callback in
 * another browser, a foreign `iss`, gw2.me refusing, erring or down.
 */

import assert from "node:assert/strict";
import { mintSubtoken, TEST_KEYS } from "../fake_gw2/mod.ts";
import { modernPost } from "../support/app.ts";
import {
  atGw2me,
  backFromGw2me,
  chooseGw2me,
  GW2ME_CALLBACK,
  GW2ME_URL,
  gw2meCode,
  startGw2meApp,
} from "../support/gw2me.ts";
import {
  answerConsent,
  authorizeUrl,
  CALLBACK,
  exchangeCode,
  type Handler,
  openConsent,
  pkce,
  postForm,
  readConsent,
  redirectParams,
  registeredClient,
  signIn,
  startPublicApp,
} from "../support/oauth.ts";

const MAIN = "Priory Tester.4821";

/** Exchanges a gw2.me sign-in's code: the access and refresh tokens. */
async function tokensOf(
  handler: Handler,
  done: { clientId: string; verifier: string; code: string },
): Promise<{ access: string; refresh: string }> {
  const { status, body } = await exchangeCode(handler, { ...done, redirectUri: CALLBACK });
  assert.equal(status, 200, JSON.stringify(body));
  return { access: String(body.access_token), refresh: String(body.refresh_token) };
}

/** Calls `priory_account` with an access token: the HTTP status and the account name. */
async function accountName(
  handler: Handler,
  access: string,
): Promise<{ status: number; name?: string }> {
  const response = await handler(
    modernPost("tools/call", { name: "priory_account", arguments: {} }, {
      authorization: `Bearer ${access}`,
    }),
  );
  if (response.status !== 200) {
    await response.body?.cancel();
    return { status: response.status };
  }
  const body = await response.json();
  return { status: 200, name: body.result?.structuredContent?.name };
}

Deno.test("gw2.me: consent page -> gw2.me -> back -> token -> priory_account reads through a subtoken; revocation reaches gw2.me", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const chose = await chooseGw2me(app.handler);
  assert.equal(chose.answer.status, 302);
  const to = new URL(chose.location);
  assert.equal(to.origin + to.pathname, `${GW2ME_URL}/oauth2/authorize`);
  assert.equal(to.searchParams.get("client_id"), "priory-fake-client");
  assert.equal(to.searchParams.get("redirect_uri"), GW2ME_CALLBACK);
  assert.equal(to.searchParams.get("code_challenge_method"), "S256");
  assert.equal(
    to.searchParams.get("scope"),
    "gw2:account gw2:inventories gw2:characters gw2:wallet gw2:tradingpost gw2:unlocks gw2:progression",
  );
  assert.match(chose.cookie, /^priory_gw2me_[\w-]{12}=[\w-]{43}$/);
  assert.match(
    chose.answer.headers.getSetCookie().find((line) => line.startsWith("priory_gw2me_")) ?? "",
    /HttpOnly; SameSite=Lax/,
  );

  const back = await atGw2me(gw2me, chose.location, "tester");
  const answer = await backFromGw2me(app.handler, back, chose.cookie);
  assert.equal(answer.status, 302);
  const params = redirectParams(answer);
  assert.equal(params.get("state"), "state-123", "the app's own state comes back");
  assert.equal(params.get("iss"), "http://localhost");
  const tokens = await tokensOf(app.handler, {
    clientId: chose.clientId,
    verifier: chose.verifier,
    code: params.get("code") ?? "",
  });

  assert.deepEqual(await accountName(app.handler, tokens.access), { status: 200, name: MAIN });
  // Past the account cache's 5 minutes, the tool reads GW2 again: with the subtoken.
  const seen = app.fake.control.requests.length;
  started.clock.advance(6 * 60_000);
  assert.deepEqual(await accountName(app.handler, tokens.access), { status: 200, name: MAIN });
  const labels = app.fake.control.requests.slice(seen).map((request) => request.keyLabel);
  assert.ok(labels.length > 0 && labels.every((label) => label === "subtoken:full"), `${labels}`);
  assert.ok(
    app.fake.control.requests.every((request) =>
      request.keyLabel === undefined || request.keyLabel === "subtoken:full"
    ),
    "no GW2 request of this sign-in carried anything but the subtoken",
  );
  assert.equal(gw2me.minted, 1, "the sign-in's own subtoken is used, not a second one");

  const revoked = await postForm(app.handler, "/revoke", {
    token: tokens.refresh,
    client_id: chose.clientId,
  });
  assert.equal(revoked.status, 200);
  assert.deepEqual(gw2me.revocations.toSorted(), ["access", "refresh"]);
  assert.equal(gw2me.live, 0, "the gw2.me side ended too");
  assert.equal((await accountName(app.handler, tokens.access)).status, 401);
});

Deno.test("gw2.me: an expired subtoken is minted again; past the access token, gw2.me's rotating refresh token is used and the new one kept", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me, clock } = started;
  const done = await gw2meCode(app.handler, gw2me);
  let tokens = await tokensOf(app.handler, done);
  const refresh = async () => {
    const { status, body } = await postForm(app.handler, "/token", {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh,
      client_id: done.clientId,
    });
    assert.equal(status, 200, JSON.stringify(body));
    tokens = { access: String(body.access_token), refresh: String(body.refresh_token) };
  };
  assert.equal((await accountName(app.handler, tokens.access)).name, MAIN);
  // Near the end of the subtoken's hour: a new one, with gw2.me's access token as it is.
  clock.advance(59 * 60_000);
  assert.equal((await accountName(app.handler, tokens.access)).name, MAIN);
  assert.equal(gw2me.minted, 2);
  const grantTypes = () =>
    gw2me.requests.filter((request) => request.endpoint === "token").map((request) => [
      request.grantType,
      request.status,
    ]);
  assert.deepEqual(grantTypes(), [["authorization_code", 200]]);
  // gw2.me's access token gone: a refresh (rotating its refresh token), then a subtoken.
  for (const round of [3, 4]) {
    gw2me.expireAccessTokens();
    clock.advance(59 * 60_000);
    await refresh();
    assert.equal((await accountName(app.handler, tokens.access)).name, MAIN, `round ${round}`);
    assert.equal(gw2me.minted, round);
  }
  // The second refresh worked only because the first one's new refresh token was stored: the
  // one before it is dead at gw2.me.
  assert.deepEqual(grantTypes(), [
    ["authorization_code", 200],
    ["refresh_token", 200],
    ["refresh_token", 200],
  ]);
});

Deno.test("gw2.me: a callback with a forged state, a replayed one, or in a browser without the binding cookie is refused", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const chose = await chooseGw2me(app.handler);
  const back = await atGw2me(gw2me, chose.location, "tester");
  const forged = new URL(back);
  forged.searchParams.set("state", "A".repeat(43));
  const refusedForged = await backFromGw2me(app.handler, forged.href, chose.cookie);
  assert.equal(refusedForged.status, 400);
  assert.equal(refusedForged.headers.get("location"), null);
  assert.match(await refusedForged.text(), /expired/);
  // Another browser (the URL sent to a victim, or stolen): no cookie, or another sign-in's.
  for (
    const cookie of [undefined, "priory_gw2me_AAAAAAAAAAAA=nope", chose.cookie.replace(/=.*/, "=x")]
  ) {
    const refused = await backFromGw2me(app.handler, back, cookie);
    assert.equal(refused.status, 403, String(cookie));
    assert.equal(refused.headers.get("location"), null);
    await refused.body?.cancel();
  }
  // None of that used the sign-in up: its own browser still finishes it, once.
  const answer = await backFromGw2me(app.handler, back, chose.cookie);
  assert.equal(answer.status, 302);
  assert.ok(redirectParams(answer).get("code"));
  const replayed = await backFromGw2me(app.handler, back, chose.cookie);
  assert.equal(replayed.status, 400);
  assert.equal(replayed.headers.get("location"), null);
  await replayed.body?.cancel();
  assert.equal(
    gw2me.requests.filter((request) => request.grantType === "authorization_code").length,
    1,
    "the code was exchanged once",
  );
});

Deno.test("gw2.me: two sign-ins' states cannot be swapped: each callback needs its own browser's cookie", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const victim = await chooseGw2me(app.handler);
  const attacker = await chooseGw2me(app.handler);
  // The attacker signs in at gw2.me as themself and sends their callback to the victim.
  const attackersBack = await atGw2me(gw2me, attacker.location, "veteran");
  const refused = await backFromGw2me(app.handler, attackersBack, victim.cookie);
  assert.equal(refused.status, 403);
  await refused.body?.cancel();
});

Deno.test("gw2.me: an answer naming another issuer is refused", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const chose = await chooseGw2me(app.handler);
  const back = new URL(await atGw2me(gw2me, chose.location, "tester"));
  assert.equal(back.searchParams.get("iss"), GW2ME_URL);
  back.searchParams.set("iss", "https://evil.example");
  const refused = await backFromGw2me(app.handler, back.href, chose.cookie);
  assert.equal(refused.status, 403);
  await refused.body?.cancel();
});

Deno.test("gw2.me: Deny there, an error, or no shared account shows the consent page again with the reason, and redirects nowhere", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const cases: [string, () => void, RegExp][] = [
    ["deny", () => {}, /The sign-in with gw2\.me was cancelled/],
    ["tester", () => gw2me.failNext("token", 500), /gw2\.me could not complete the sign-in/],
    ["tester", () => gw2me.failNext("subtoken", 503), /gw2\.me could not complete the sign-in/],
    ["nokey", () => {}, /gw2\.me shared no Guild Wars 2 account/],
  ];
  for (const [user, arrange, text] of cases) {
    const chose = await chooseGw2me(app.handler);
    const back = await atGw2me(gw2me, chose.location, user);
    arrange();
    const answer = await backFromGw2me(app.handler, back, chose.cookie);
    assert.equal(answer.status, 400, user);
    assert.equal(answer.headers.get("location"), null);
    const page = await readConsent(answer);
    assert.match(page.html, text);
    assert.ok(page.request, "a fresh form: the player can try again or paste a key");
    // The fresh form works: a key now signs in to the same app request.
    const allowed = await answerConsent(app.handler, page, {
      decision: "allow",
      key: TEST_KEYS.full,
    });
    assert.equal(allowed.status, 302);
    assert.equal(redirectParams(allowed).get("state"), "state-123");
  }
  // Two of them got tokens from gw2.me before failing: those were revoked there.
  assert.equal(gw2me.live, 0);
  assert.deepEqual(gw2me.revocations.toSorted(), ["access", "access", "refresh", "refresh"]);
});

Deno.test("gw2.me: when gw2.me refuses the refresh (Priory removed there), the sign-in ends and the app must sign in again", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me, clock } = started;
  const tokens = await tokensOf(app.handler, await gw2meCode(app.handler, gw2me));
  gw2me.removeApp("tester");
  gw2me.expireAccessTokens();
  clock.advance(59 * 60_000);
  assert.equal((await accountName(app.handler, tokens.access)).status, 401);
});

Deno.test("gw2.me: gw2.me down when a subtoken is due answers 503 with Retry-After; the sign-in survives", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me, clock } = started;
  const tokens = await tokensOf(app.handler, await gw2meCode(app.handler, gw2me));
  clock.advance(59 * 60_000);
  gw2me.failNext("subtoken", 502);
  const response = await app.handler(
    modernPost("tools/call", { name: "priory_account", arguments: {} }, {
      authorization: `Bearer ${tokens.access}`,
    }),
  );
  assert.equal(response.status, 503);
  assert.equal(response.headers.get("retry-after"), "30");
  await response.body?.cancel();
  assert.equal((await accountName(app.handler, tokens.access)).name, MAIN);
});

Deno.test("gw2.me: off unless configured: no button, decision=gw2me is no sign-in, the callback is 404", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const { challenge } = await pkce();
  const page = await openConsent(
    app.handler,
    authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
  );
  assert.doesNotMatch(page.html, /gw2\.me/);
  const answer = await answerConsent(app.handler, page, { decision: "gw2me" });
  assert.equal(answer.status, 400);
  assert.equal(answer.headers.get("location"), null);
  await answer.body?.cancel();
  const callback = await app.handler(new Request(`${GW2ME_CALLBACK}?state=x&code=y`));
  assert.equal(callback.status, 404);
  await callback.body?.cancel();
});

Deno.test("a GW2 subtoken is accepted wherever a key is: pasted on the consent page (past the old 200-character field)", async () => {
  await using app = await startPublicApp();
  const subtoken = mintSubtoken(
    "full",
    ["account", "inventories", "characters", "wallet", "progression", "unlocks", "tradingpost"],
    app.clock.now(),
    app.clock.now() + 3_600_000,
  );
  assert.ok(subtoken.length > 200, `a JWT is long: ${subtoken.length}`);
  const { accessToken } = await signIn(app.handler, subtoken);
  assert.equal((await accountName(app.handler, accessToken)).name, MAIN);
});

Deno.test("gw2.me: the consent page offers it after Allow and Deny (Enter still allows), and its CSP lets the form go to gw2.me", async () => {
  await using started = await startGw2meApp();
  const { app } = started;
  const clientId = await registeredClient(app.handler);
  const { challenge } = await pkce();
  const page = await openConsent(
    app.handler,
    authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
  );
  const buttons = [...page.html.matchAll(/name="decision" value="(\w+)"/g)].map((m) => m[1]);
  assert.deepEqual(buttons, ["allow", "deny", "gw2me"]);
  assert.match(page.html, />Sign in with gw2\.me</);
  assert.match(
    page.response.headers.get("content-security-policy") ?? "",
    /form-action 'self' http:\/\/127\.0\.0\.1:53682 https:\/\/gw2me\.test;/,
  );
});

Deno.test("gw2.me: signing out with a key of the account ends its gw2.me sign-ins too, at gw2.me", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const viaGw2me = await tokensOf(app.handler, await gw2meCode(app.handler, gw2me));
  const viaKey = await signIn(app.handler, TEST_KEYS.full);
  const form = await app.handler(new Request("http://localhost/signout"));
  const html = await form.text();
  const field = (/name="request" value="([^"]*)"/.exec(html)?.[1] ?? "").replaceAll("&amp;", "&");
  const cookie = form.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  const done = await app.handler(
    new Request("http://localhost/signout", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "http://localhost",
        cookie,
      },
      body: new URLSearchParams({ request: field, gw2_key: TEST_KEYS.accountOnly }).toString(),
    }),
  );
  assert.match(await done.text(), /<span class="ended">2<\/span> sign-ins/);
  assert.equal((await accountName(app.handler, viaGw2me.access)).status, 401);
  assert.equal((await accountName(app.handler, viaKey.accessToken)).status, 401);
  assert.equal(gw2me.live, 0, "the gw2.me authorization was revoked there");
  assert.ok(gw2me.revocations.includes("refresh"));
});
