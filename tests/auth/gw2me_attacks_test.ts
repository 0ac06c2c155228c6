/**
 * Sign in with gw2.me, attacked from outside: a gw2.me code injected into another browser's
 * callback, markup in the callback's parameters (nothing of them is written back), a callback
 * that tries to pick where the browser goes next, and the secrets of the flow - gw2.me's access
 * and refresh tokens, the GW2 subtokens, Priory's PKCE verifier and client secret - looked for
 * in every log line (at debug), every answer Priory gives, every URL it asks, and the bytes of
 * the KV database.
 */

import assert from "node:assert/strict";
import { TEST_KEYS } from "../fake_gw2/mod.ts";
import { FAKE_GW2ME_CLIENT, FakeGw2me } from "../fake_gw2me/mod.ts";
import { modernPost } from "../support/app.ts";
import { ManualClock } from "../support/clock.ts";
import {
  atGw2me,
  backFromGw2me,
  chooseGw2me,
  GW2ME_CALLBACK,
  GW2ME_ENV,
  GW2ME_URL,
  gw2meCode,
  startGw2meApp,
} from "../support/gw2me.ts";
import { tempKvFile } from "../support/kv.ts";
import {
  CALLBACK,
  exchangeCode,
  fromAddress,
  type Handler,
  postForm,
  PUBLIC_URL,
  startPublicApp,
} from "../support/oauth.ts";

/** Grant records in KV. */
async function grants(kv: Deno.Kv): Promise<number> {
  return (await Array.fromAsync(kv.list({ prefix: ["auth", "grant"] }))).length;
}

Deno.test("gw2.me attacks: a code injected into another browser's callback is exchanged with that browser's PKCE verifier, refused by gw2.me, and issues nothing", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const victim = await chooseGw2me(app.handler);
  // The attacker starts a sign-in of their own and stops at gw2.me's answer: a live code.
  const attacker = await chooseGw2me(app.handler);
  const attackers = new URL(await atGw2me(gw2me, attacker.location, "veteran"));
  const code = attackers.searchParams.get("code") ?? "";
  assert.notEqual(code, "");
  // ...and plants it in the victim's callback (the victim's own state and cookie).
  const victims = new URL(await atGw2me(gw2me, victim.location, "deny"));
  victims.searchParams.delete("error");
  victims.searchParams.set("code", code);
  const answer = await backFromGw2me(app.handler, victims.href, victim.cookie);
  assert.equal(answer.status, 400);
  assert.equal(answer.headers.get("location"), null, "no code goes to the app");
  assert.match(await answer.text(), /gw2\.me could not complete the sign-in/);
  assert.equal(await grants(app.kv), 0, "nothing was issued");
  const exchanges = gw2me.requests.filter((request) => request.grantType === "authorization_code");
  assert.deepEqual(exchanges.map((request) => request.status), [400], "gw2.me refused the PKCE");
  // The attacker's own callback cannot use the code any more either.
  const late = await backFromGw2me(app.handler, attackers.href, attacker.cookie);
  assert.equal(late.headers.get("location"), null);
  await late.body?.cancel();
  assert.equal(await grants(app.kv), 0);
});

Deno.test("gw2.me attacks: markup in the callback's parameters is never written back, with or without a valid state", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const markup = '<script>alert(1)</script><img src=x onerror="alert(2)">';
  const chose = await chooseGw2me(app.handler);
  const back = new URL(await atGw2me(gw2me, chose.location, "deny"));
  back.searchParams.set("error", markup);
  back.searchParams.set("error_description", markup);
  back.searchParams.set("error_uri", "javascript:alert(3)");
  const withState = await backFromGw2me(app.handler, back.href, chose.cookie);
  const forged = new URL(back);
  forged.searchParams.set("state", `<b>${"A".repeat(40)}`);
  const withoutState = await backFromGw2me(app.handler, forged.href, chose.cookie);
  for (const response of [withState, withoutState]) {
    assert.equal(response.headers.get("location"), null);
    const csp = response.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    const html = await response.text();
    assert.doesNotMatch(html, /<script|<img|onerror|javascript:|alert\(|<b>/i, html);
  }
});

Deno.test("gw2.me attacks: the callback chooses nowhere to go - the app's registered redirect or no redirect at all", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const chose = await chooseGw2me(app.handler);
  const back = new URL(await atGw2me(gw2me, chose.location, "tester"));
  for (const name of ["redirect_uri", "next", "return_to", "continue"]) {
    back.searchParams.set(name, "https://evil.example/steal");
  }
  const answer = await backFromGw2me(app.handler, back.href, chose.cookie);
  assert.equal(answer.status, 302);
  const location = new URL(answer.headers.get("location") ?? "");
  assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
  assert.doesNotMatch(location.href, /evil/);
  // A callback Priory did not start (no pending sign-in) redirects nowhere, whatever it names.
  const stray = await app.handler(
    new Request(`${GW2ME_CALLBACK}?state=x&code=y&redirect_uri=https://evil.example/`),
  );
  assert.equal(stray.headers.get("location"), null);
  await stray.body?.cancel();
});

/** An answer as text: status, headers and body, for looking secrets up in. */
async function answerText(response: Response): Promise<string> {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  return `${response.status}\n${headers}\n\n${await response.text()}`;
}

/** Whole secrets and their halves: none may be found anywhere. */
function pieces(secret: string): string[] {
  const half = Math.floor(secret.length / 2);
  return [secret, secret.slice(0, half), secret.slice(half)];
}

Deno.test("gw2.me secrets: its tokens, the subtokens, Priory's verifier and client secret are in no log line, no answer, no URL, and not in the clear in KV", async () => {
  await using file = await tempKvFile();
  const kv = await Deno.openKv(file.path);
  const clock = new ManualClock({ advance: "delays" });
  const gw2me = new FakeGw2me({ now: () => clock.now(), redirectUris: [GW2ME_CALLBACK] });
  const secrets = new Set<string>([FAKE_GW2ME_CLIENT.secret]);
  const gw2meUrls: string[] = [];
  // gw2.me as Priory reaches it: every secret it is sent or hands out is noted.
  const gw2meFetch = async (request: Request): Promise<Response> => {
    gw2meUrls.push(request.url);
    const verifier = new URLSearchParams(await request.clone().text()).get("code_verifier");
    if (verifier !== null) secrets.add(verifier);
    const response = await gw2me.fetch(request);
    try {
      const json = await response.clone().json();
      for (const field of ["access_token", "refresh_token", "subtoken"]) {
        if (typeof json[field] === "string") secrets.add(json[field]);
      }
    } catch {
      // Not JSON (a page): nothing handed out.
    }
    return response;
  };
  const answers: string[] = [];
  let logs: readonly string[] = [];
  let gw2Asked: string[] = [];
  try {
    await using app = await startPublicApp({ kv, clock, env: GW2ME_ENV, gw2meFetch });
    logs = app.logs;
    const handler: Handler = async (request, info) => {
      const response = await app.handler(request, info);
      answers.push(await answerText(response.clone()));
      return response;
    };
    const call = async (access: string, name: string, args: Record<string, unknown> = {}) => {
      const response = await handler(
        modernPost("tools/call", { name, arguments: args }, { authorization: `Bearer ${access}` }),
      );
      await response.body?.cancel();
      return response.status;
    };
    // A sign-in, its calls (a subtoken minted again, gw2.me's refresh token rotated), its end.
    const done = await gw2meCode(handler, gw2me);
    const tokens = (await exchangeCode(handler, { ...done, redirectUri: CALLBACK })).body;
    const access = String(tokens.access_token);
    assert.equal(await call(access, "priory_account"), 200);
    assert.equal(await call(access, "gw2_api", { path: "/v2/account/mastery/points" }), 200);
    clock.advance(59 * 60_000);
    gw2me.expireAccessTokens();
    assert.equal(await call(access, "priory_account_wallet"), 200);
    const refreshed = await postForm(handler, "/token", {
      grant_type: "refresh_token",
      refresh_token: String(tokens.refresh_token),
      client_id: done.clientId,
    });
    assert.equal(await call(String(refreshed.body.access_token), "priory_account"), 200);
    // Two sign-ins of another account, one ended by /revoke, one by the sign-out page; the
    // first stays live, so its sealed tokens are in the KV file at the end.
    const second = await gw2meCode(handler, gw2me, "veteran");
    const secondTokens = (await exchangeCode(handler, { ...second, redirectUri: CALLBACK })).body;
    await postForm(handler, "/revoke", {
      token: String(secondTokens.refresh_token),
      client_id: second.clientId,
    });
    await gw2meCode(handler, gw2me, "veteran");
    const form = await handler(new Request(`${PUBLIC_URL}/signout`));
    const html = await form.text();
    const field = /name="request" value="([^"]*)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    const signedOut = await handler(
      new Request(`${PUBLIC_URL}/signout`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: PUBLIC_URL,
          cookie: form.headers.getSetCookie()[0]?.split(";")[0] ?? "",
        },
        body: new URLSearchParams({ request: field ?? "", gw2_key: TEST_KEYS.veteran }).toString(),
      }),
      fromAddress("203.0.113.4"),
    );
    assert.match(await signedOut.text(), /Signed out: 1 sign-in of/);
    // And one that fails after gw2.me's tokens came: they are revoked at once.
    const chose = await chooseGw2me(handler);
    const failing = await atGw2me(gw2me, chose.location, "tester");
    gw2me.failNext("subtoken", 503);
    await (await backFromGw2me(handler, failing, chose.cookie)).body?.cancel();
    gw2Asked = app.fake.control.requests.map((request) => `${request.path}?${request.query}`);
  } finally {
    kv.close();
  }
  assert.equal(gw2me.live, 1, "every gw2.me authorization but the first sign-in's ended");
  const kinds = [...secrets];
  assert.ok(kinds.some((secret) => secret.split(".").length === 3), "subtokens were minted");
  assert.ok(kinds.length >= 12, `the flows handed out secrets: ${kinds.length}`);
  const files: string[] = [];
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      files.push(new TextDecoder("latin1").decode(await Deno.readFile(`${file.path}${suffix}`)));
    } catch {
      // SQLite may have folded the log back already.
    }
  }
  const database = files.join("\n");
  assert.ok(database.includes("gw2me"), "the live gw2.me sign-in is in this file");
  const places: [string, readonly string[]][] = [
    ["a log line", logs],
    ["an answer of Priory's", answers],
    ["a URL asked of gw2.me", gw2meUrls],
    ["a URL asked of GW2", gw2Asked],
    ["the KV file", [database]],
  ];
  for (const secret of kinds) {
    for (const piece of pieces(secret)) {
      for (const [place, texts] of places) {
        assert.ok(
          !texts.some((text) => text.includes(piece)),
          `${place} holds ${piece.slice(0, 8)}\u2026 of a secret`,
        );
      }
    }
  }
  assert.ok(gw2meUrls.every((url) => url.startsWith(GW2ME_URL)));
});
