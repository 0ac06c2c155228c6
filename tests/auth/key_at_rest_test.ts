/**
 * Keys at rest in the public mode: after a day's worth of sign-ins, calls (`gw2_api` too),
 * refreshes, a revocation, refused keys and a sign-out, no GW2 key, access token, refresh token or code appears in any log
 * line, any tool result, or the bytes of the KV database file — the key is sealed under
 * `PRIORY_SECRET`, tokens and codes are stored as digests, account data is cached under an HMAC.
 */

import assert from "node:assert/strict";
import { playerKey, TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import { modernPost, type TestApp } from "../support/app.ts";
import { tempKvFile } from "../support/kv.ts";
import {
  answerConsent,
  authorize,
  authorizeUrl,
  CALLBACK,
  openConsent,
  pkce,
  postForm,
  PUBLIC_URL,
  readConsent,
  registeredClient,
  RESOURCE,
  signIn,
  startPublicApp,
} from "../support/oauth.ts";

/** Every tool result text and structured result an account tool gave `token`. */
async function accountResults(app: TestApp, token: string): Promise<string[]> {
  const texts: string[] = [];
  for (
    const [name, args] of [
      ["priory_account", {}],
      ["priory_account_wallet", {}],
      ["priory_account_materials", {}],
      ["priory_recipe_tree", { itemId: 19721, useAccount: true }],
      ["gw2_api", { path: "/v2/account/mastery/points" }],
      ["gw2_api", { path: "/v2/tokeninfo" }],
    ] as const
  ) {
    const request = modernPost("tools/call", { name, arguments: args }, {
      authorization: `Bearer ${token}`,
      // Ignored with an access token: never used, never echoed.
      "x-gw2-key": TEST_KEYS.accountOnly,
    });
    const response = await app.handler(new Request(`${PUBLIC_URL}/mcp`, request));
    texts.push(await response.text());
  }
  return texts;
}

/** Pieces of a secret that must not be found anywhere: whole, and its halves. */
function pieces(secret: string): string[] {
  const half = Math.floor(secret.length / 2);
  return [secret, secret.slice(0, half), secret.slice(half)];
}

Deno.test("public mode: no GW2 key, token or code in any log line, result, or the KV file's bytes", async () => {
  await using file = await tempKvFile();
  const kv = await Deno.openKv(file.path);
  const secrets: string[] = [];
  const results: string[] = [];
  let logs: readonly string[] = [];
  try {
    await using app = await startPublicApp({ kv });
    logs = app.logs;
    const main = await signIn(app.handler, TEST_KEYS.full);
    const veteran = await signIn(app.handler, TEST_KEYS.veteran);
    results.push(...await accountResults(app, main.accessToken));
    results.push(...await accountResults(app, veteran.accessToken));
    const refreshed = await postForm(app.handler, "/token", {
      grant_type: "refresh_token",
      refresh_token: main.refreshToken,
      client_id: main.clientId,
      resource: RESOURCE,
    });
    results.push(JSON.stringify(refreshed.body));
    results.push(...await accountResults(app, String(refreshed.body.access_token)));
    await postForm(app.handler, "/revoke", { token: veteran.refreshToken });
    // A code left unexchanged, a key GW2 rejects, a key missing permissions.
    const pending = await authorize(app.handler, TEST_KEYS.full);
    const { challenge } = await pkce();
    const page = await openConsent(
      app.handler,
      authorizeUrl({
        client_id: await registeredClient(app.handler),
        redirect_uri: CALLBACK,
        code_challenge: challenge,
      }),
    );
    const refused = await answerConsent(app.handler, page, { decision: "allow", key: UNKNOWN_KEY });
    const retry = await readConsent(refused);
    const partial = await answerConsent(app.handler, retry, {
      decision: "allow",
      key: TEST_KEYS.noWallet,
    });
    results.push(retry.html, await partial.text());
    // The sign-out page: a key given there is checked, used and forgotten.
    await signIn(app.handler, playerKey(1));
    const form = await app.handler(new Request(`${PUBLIC_URL}/signout`));
    const field = /name="request" value="([^"]*)"/.exec(await form.text())?.[1] ?? "";
    const signedOut = await app.handler(
      new Request(`${PUBLIC_URL}/signout`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: PUBLIC_URL,
          cookie: form.headers.getSetCookie()[0]?.split(";")[0] ?? "",
        },
        body: new URLSearchParams({
          request: field.replaceAll("&amp;", "&"),
          gw2_key: playerKey(1),
        }).toString(),
      }),
    );
    results.push(await signedOut.text());
    assert.match(results.at(-1) ?? "", /Signed out: 1 sign-in of/);
    secrets.push(
      main.accessToken,
      main.refreshToken,
      veteran.accessToken,
      veteran.refreshToken,
      String(refreshed.body.access_token),
      String(refreshed.body.refresh_token),
      pending.code,
    );
  } finally {
    kv.close();
  }
  const keys = [
    TEST_KEYS.full,
    TEST_KEYS.veteran,
    TEST_KEYS.noWallet,
    TEST_KEYS.accountOnly,
    UNKNOWN_KEY,
    playerKey(1),
  ];
  // Tokens are `<kind>.<grant id>.<secret>`: the secret part is what must never be stored.
  const tokenSecrets = secrets.map((token) => token.split(".").at(-1) ?? token);
  const bytes = new Uint8Array();
  const files: Uint8Array[] = [bytes];
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      files.push(await Deno.readFile(`${file.path}${suffix}`));
    } catch {
      // SQLite may have folded the log back already.
    }
  }
  const database = files.map((content) => new TextDecoder("latin1").decode(content)).join("\n");
  assert.ok(database.includes("auth"), "the grants are in this file");
  for (const secret of [...keys.flatMap(pieces), ...tokenSecrets]) {
    assert.ok(!database.includes(secret), `the KV file holds ${secret.slice(0, 8)}…`);
    for (const line of logs) {
      assert.ok(!line.includes(secret), `a log line holds ${secret.slice(0, 8)}…`);
    }
  }
  for (const key of keys.flatMap(pieces)) {
    for (const result of results) {
      assert.ok(!result.includes(key), `a result holds ${key.slice(0, 8)}…`);
    }
  }
  assert.ok(results.some((result) => result.includes("Priory Tester.4821")), "the calls did run");
});
