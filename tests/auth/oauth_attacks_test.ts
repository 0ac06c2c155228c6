/**
 * The authorization server under attack, request by request: each test breaks one rule of the
 * flow — PKCE, codes, redirects, resources, refresh rotation, revocation, CSRF, the key — and
 * checks the refusal (RFC error codes, no redirect where none may go, nothing issued).
 */

import assert from "node:assert/strict";
import { ClientDocumentError } from "../../src/auth/document_fetch.ts";
import { TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import { modernPost, type TestApp } from "../support/app.ts";
import { openMemoryKv } from "../support/kv.ts";
import {
  answerConsent,
  authorize,
  type Authorized,
  authorizeUrl,
  CALLBACK,
  exchangeCode,
  freshConsent,
  madeUpKey,
  openConsent,
  pkce,
  postForm,
  PUBLIC_ENV,
  PUBLIC_URL,
  readConsent,
  redirectParams,
  register,
  registeredClient,
  RESOURCE,
  signIn,
  startPublicApp,
} from "../support/oauth.ts";

/** A `priory_account` call with `token`; the HTTP status and, on 200, the account name. */
async function accountWith(
  app: TestApp,
  token: string,
): Promise<{ status: number; name?: string; challenge: string | null }> {
  const request = modernPost("tools/call", { name: "priory_account", arguments: {} }, {
    authorization: `Bearer ${token}`,
  });
  const response = await app.handler(new Request(`${PUBLIC_URL}/mcp`, request));
  const challenge = response.headers.get("www-authenticate");
  if (response.status !== 200) {
    await response.body?.cancel();
    return { status: response.status, challenge };
  }
  const body = await response.json();
  return { status: 200, name: body.result?.structuredContent?.name, challenge };
}

function exchange(
  app: TestApp,
  done: Authorized,
  override: Record<string, string | undefined> = {},
) {
  return exchangeCode(app.handler, done, override);
}

Deno.test("a wrong or missing PKCE verifier gets no token; the right one still does", async () => {
  await using app = await startPublicApp();
  const done = await authorize(app.handler, TEST_KEYS.full);
  const wrong = await exchange(app, done, { code_verifier: (await pkce()).verifier });
  assert.deepEqual([wrong.status, wrong.body.error], [400, "invalid_grant"]);
  const missing = await exchange(app, done, { code_verifier: undefined });
  assert.deepEqual([missing.status, missing.body.error], [400, "invalid_request"]);
  const short = await exchange(app, done, { code_verifier: "too-short" });
  assert.equal(short.body.error, "invalid_grant");
  const right = await exchange(app, done);
  assert.equal(right.status, 200);
  assert.equal(right.body.token_type, "Bearer");
  assert.ok(Number(right.body.expires_in) <= 3600);
});

Deno.test("the authorization request needs PKCE S256: plain and a missing challenge go back as errors", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const { challenge } = await pkce();
  for (
    const [params, description] of [
      [{ code_challenge_method: "plain", code_challenge: challenge }, /S256/],
      [{ code_challenge: undefined }, /code_challenge is required/],
      [{ code_challenge_method: undefined, code_challenge: challenge }, /S256/],
      [{ code_challenge: "short" }, /43 characters/],
    ] as const
  ) {
    const page = await openConsent(
      app.handler,
      authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, ...params }),
    );
    assert.equal(page.response.status, 302);
    const answer = redirectParams(page.response);
    assert.equal(answer.get("error"), "invalid_request");
    assert.match(answer.get("error_description") ?? "", description);
    assert.equal(answer.get("state"), "state-123");
    assert.equal(answer.get("iss"), PUBLIC_URL);
    assert.equal(page.request, undefined, "no consent form");
  }
});

Deno.test("a code is single-use: presented again it is refused and the sign-in it made is revoked", async () => {
  await using app = await startPublicApp();
  const done = await authorize(app.handler, TEST_KEYS.full);
  const first = await exchange(app, done);
  assert.equal(first.status, 200);
  assert.equal((await accountWith(app, String(first.body.access_token))).status, 200);
  const again = await exchange(app, done);
  assert.deepEqual([again.status, again.body.error], [400, "invalid_grant"]);
  assert.equal((await accountWith(app, String(first.body.access_token))).status, 401);
  const refreshed = await postForm(app.handler, "/token", {
    grant_type: "refresh_token",
    refresh_token: String(first.body.refresh_token),
    client_id: done.clientId,
  });
  assert.equal(refreshed.body.error, "invalid_grant");
});

Deno.test("a code expires: five minutes after the consent it is refused", async () => {
  await using app = await startPublicApp();
  const done = await authorize(app.handler, TEST_KEYS.full);
  app.clock.advance(5 * 60_000 + 1);
  const late = await exchange(app, done);
  assert.deepEqual([late.status, late.body.error], [400, "invalid_grant"]);
  assert.match(String(late.body.error_description), /expired/);
});

Deno.test("a foreign or unregistered redirect URI is never redirected to", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const { challenge } = await pkce();
  for (
    const redirect of [
      "https://evil.example/steal",
      `${CALLBACK}/`,
      `${CALLBACK}?extra=1`,
      "http://127.0.0.1:53683/callback",
      undefined,
    ]
  ) {
    const page = await openConsent(
      app.handler,
      authorizeUrl({ client_id: clientId, redirect_uri: redirect, code_challenge: challenge }),
    );
    assert.equal(page.response.status, 400, String(redirect));
    assert.equal(page.response.headers.get("location"), null);
    assert.match(page.html, /did not register/);
  }
  // An unknown or forged client is a page too, not a redirect.
  for (const id of ["pcl.forged.AAAA", `${clientId.slice(0, -2)}xx`, "made-up"]) {
    const page = await openConsent(
      app.handler,
      authorizeUrl({ client_id: id, redirect_uri: CALLBACK, code_challenge: challenge }),
    );
    assert.equal(page.response.status, 400);
    assert.equal(page.response.headers.get("location"), null);
    assert.match(page.html, /not known to this server/);
  }
  // At the token endpoint the redirect URI must be the code's, exactly.
  const done = await authorize(app.handler, TEST_KEYS.full);
  const moved = await exchange(app, done, { redirect_uri: `${CALLBACK}/` });
  assert.equal(moved.body.error, "invalid_grant");
});

Deno.test("registration refuses dangerous redirect schemes and remote http", async () => {
  await using app = await startPublicApp();
  for (
    const uri of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "http://evil.example/callback",
      "https://app.example/cb#frag",
    ]
  ) {
    const { status, body } = await register(app.handler, { redirect_uris: [uri] });
    assert.deepEqual([status, body.error], [400, "invalid_redirect_uri"], uri);
  }
  const ok = await register(app.handler, {
    redirect_uris: ["cursor://anysphere.cursor-mcp/oauth/callback"],
    client_name: "Cursor",
  });
  assert.equal(ok.status, 201);
  assert.equal(ok.body.token_endpoint_auth_method, "none");
  assert.equal(ok.body.client_secret, undefined);
});

Deno.test("a wrong resource is invalid_target, at the authorization and at the token endpoint", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const { challenge } = await pkce();
  const page = await openConsent(
    app.handler,
    authorizeUrl({
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      resource: "https://other.example/mcp",
    }),
  );
  assert.equal(redirectParams(page.response).get("error"), "invalid_target");
  const done = await authorize(app.handler, TEST_KEYS.full, { clientId });
  const wrong = await exchange(app, done, { resource: "https://other.example/mcp" });
  assert.deepEqual([wrong.status, wrong.body.error], [400, "invalid_target"]);
});

Deno.test("refresh tokens rotate: the one before works until its successor is used, then a replay revokes the sign-in", async () => {
  await using app = await startPublicApp();
  const first = await signIn(app.handler, TEST_KEYS.full);
  const refresh = (token: string) =>
    postForm(app.handler, "/token", {
      grant_type: "refresh_token",
      refresh_token: token,
      client_id: first.clientId,
      resource: RESOURCE,
    });
  const second = await refresh(first.refreshToken);
  assert.equal(second.status, 200);
  assert.notEqual(second.body.refresh_token, first.refreshToken);
  // The answer may have been lost: the same token once more, its successor unused, still works.
  const retried = await refresh(first.refreshToken);
  assert.equal(retried.status, 200);
  const third = await refresh(String(retried.body.refresh_token));
  assert.equal(third.status, 200);
  // Now the first token's successor has been used: presenting it again is a replay.
  const replay = await refresh(first.refreshToken);
  assert.deepEqual([replay.status, replay.body.error], [400, "invalid_grant"]);
  assert.equal((await refresh(String(third.body.refresh_token))).body.error, "invalid_grant");
  assert.equal((await accountWith(app, String(third.body.access_token))).status, 401);
});

Deno.test("revocation (RFC 7009) ends the sign-in: its tokens are refused at once", async () => {
  await using app = await startPublicApp();
  const signedIn = await signIn(app.handler, TEST_KEYS.full);
  assert.equal((await accountWith(app, signedIn.accessToken)).name, "Priory Tester.4821");
  const foreign = await postForm(app.handler, "/revoke", {
    token: signedIn.accessToken,
    client_id: await registeredClient(app.handler),
  });
  assert.equal(foreign.body.error, "invalid_client", "another client cannot revoke it");
  const revoked = await postForm(app.handler, "/revoke", {
    token: signedIn.refreshToken,
    client_id: signedIn.clientId,
  });
  assert.equal(revoked.status, 200);
  const after = await accountWith(app, signedIn.accessToken);
  assert.equal(after.status, 401);
  assert.match(after.challenge ?? "", /error="invalid_token"/);
  assert.match(after.challenge ?? "", /resource_metadata="http:\/\/localhost\/\.well-known\//);
  const unknown = await postForm(app.handler, "/revoke", { token: "pma.nonsense" });
  assert.equal(unknown.status, 200, "an unknown token is not an error");
});

Deno.test("a token issued for another resource is refused (audience), even with the same secret and KV", async () => {
  using kv = await openMemoryKv();
  await using other = await startPublicApp({
    kv,
    env: { ...PUBLIC_ENV, PRIORY_PUBLIC_URL: "http://127.0.0.1:8080" },
  });
  await using app = await startPublicApp({ kv, clock: other.clock });
  const elsewhere = await other.handler(
    new Request("http://127.0.0.1:8080/register", {
      method: "POST",
      headers: { "content-type": "application/json", host: "127.0.0.1:8080" },
      body: JSON.stringify({ redirect_uris: [CALLBACK] }),
    }),
  );
  const { client_id: clientId } = await elsewhere.json();
  const { verifier, challenge } = await pkce();
  const url = new URL("http://127.0.0.1:8080/authorize");
  for (
    const [name, value] of Object.entries({
      response_type: "code",
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: "http://127.0.0.1:8080/mcp",
    })
  ) url.searchParams.set(name, value);
  const page = await openConsent(other.handler, url.href);
  const form = new URLSearchParams({
    request: page.request ?? "",
    decision: "allow",
    gw2_key: TEST_KEYS.full,
  });
  const answer = await other.handler(
    new Request("http://127.0.0.1:8080/authorize", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: page.cookie ?? "",
        origin: "http://127.0.0.1:8080",
      },
      body: form.toString(),
    }),
  );
  const code = redirectParams(answer).get("code") ?? "";
  const tokens = await other.handler(
    new Request("http://127.0.0.1:8080/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: CALLBACK,
        client_id: clientId,
      }).toString(),
    }),
  );
  const { access_token: token } = await tokens.json();
  const request = modernPost("tools/call", { name: "priory_account", arguments: {} }, {
    authorization: `Bearer ${token}`,
    host: "127.0.0.1:8080",
  });
  const there = await other.handler(new Request("http://127.0.0.1:8080/mcp", request));
  assert.equal(there.status, 200, "valid where it was issued");
  await there.body?.cancel();
  const here = await accountWith(app, token);
  assert.equal(here.status, 401);
  assert.match(here.challenge ?? "", /invalid_token/);
});

Deno.test("a client metadata document at a loopback or private address is never fetched", async () => {
  await using app = await startPublicApp();
  const { challenge } = await pkce();
  for (
    const id of [
      "https://127.0.0.1/oauth/client.json",
      "https://[::1]/oauth/client.json",
      "https://10.0.0.8/oauth/client.json",
      "https://169.254.169.254/latest/meta-data/iam",
      "https://192.168.1.1/client",
    ]
  ) {
    const page = await openConsent(
      app.handler,
      authorizeUrl({ client_id: id, redirect_uri: CALLBACK, code_challenge: challenge }),
    );
    assert.equal(page.response.status, 400, id);
    assert.equal(page.response.headers.get("location"), null);
    assert.match(page.html, /description \(its client metadata document\) could not be read/);
    assert.doesNotMatch(page.html, /public/, "why is for the operator's log, not the page");
  }
  assert.ok(app.logs.some((line) => line.includes("not a public one")));
});

Deno.test("a consent POST without its CSRF cookie, with another form's, replayed, or forged is refused", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const open = async () => {
    const { challenge } = await pkce();
    return await openConsent(
      app.handler,
      authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
    );
  };
  const page = await open();
  assert.ok(page.request && page.cookie, "the page carries a signed request and sets a cookie");
  const cookieLine = page.response.headers.getSetCookie()[0] ?? "";
  assert.match(cookieLine, /HttpOnly/);
  assert.match(cookieLine, /SameSite=Strict/);
  const refused = async (response: Response, status: number, text: RegExp) => {
    const shown = await readConsent(response);
    assert.equal(response.status, status);
    assert.equal(response.headers.get("location"), null);
    assert.match(shown.html, text);
  };
  await refused(
    await answerConsent(app.handler, page, {
      decision: "allow",
      key: TEST_KEYS.full,
      cookie: undefined,
    }),
    403,
    /could not be verified/,
  );
  const other = await open();
  await refused(
    await answerConsent(app.handler, page, {
      decision: "allow",
      key: TEST_KEYS.full,
      cookie: other.cookie,
    }),
    403,
    /could not be verified/,
  );
  await refused(
    await answerConsent(app.handler, page, {
      decision: "allow",
      key: TEST_KEYS.full,
      request: undefined,
    }),
    403,
    /could not be verified/,
  );
  const altered = `${page.request?.slice(0, -3)}AAA`;
  await refused(
    await answerConsent(app.handler, page, {
      decision: "allow",
      key: TEST_KEYS.full,
      request: altered,
    }),
    403,
    /could not be verified/,
  );
  await refused(
    await answerConsent(app.handler, page, {
      decision: "allow",
      key: TEST_KEYS.full,
      origin: "https://evil.example",
    }),
    403,
    /could not be verified/,
  );
  const allowed = await answerConsent(app.handler, page, {
    decision: "allow",
    key: TEST_KEYS.full,
  });
  assert.equal(allowed.status, 302);
  await refused(
    await answerConsent(app.handler, page, { decision: "allow", key: TEST_KEYS.full }),
    400,
    /already sent/,
  );
  // A page past its ten minutes is refused too.
  const stale = await open();
  app.clock.advance(10 * 60_000 + 1);
  await refused(
    await answerConsent(app.handler, stale, { decision: "allow", key: TEST_KEYS.full }),
    400,
    /expired/,
  );
});

Deno.test("the consent page cannot be framed, and Deny goes back with access_denied", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const { challenge } = await pkce();
  const page = await openConsent(
    app.handler,
    authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
  );
  const csp = page.response.headers.get("content-security-policy") ?? "";
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(page.response.headers.get("x-frame-options"), "DENY");
  assert.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:53682/);
  const denied = await answerConsent(app.handler, page, { decision: "deny" });
  const answer = redirectParams(denied);
  assert.deepEqual(
    [answer.get("error"), answer.get("state"), answer.get("iss"), answer.get("code")],
    ["access_denied", "state-123", PUBLIC_URL, null],
  );
});

Deno.test("a key GW2 rejects is explained on the page and nothing is issued; missing permissions are explained, then accepted", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const { challenge } = await pkce();
  const page = await openConsent(
    app.handler,
    authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
  );
  const rejected = await answerConsent(app.handler, page, { decision: "allow", key: UNKNOWN_KEY });
  const again = await readConsent(rejected);
  assert.equal(rejected.status, 400);
  assert.equal(rejected.headers.get("location"), null);
  assert.match(again.html, /GW2 did not accept this key/);
  assert.ok(again.request && again.request !== page.request, "a fresh form to try again");
  assert.ok(!again.html.includes(UNKNOWN_KEY), "the key is not written back into the page");
  for (const key of ["", "not a key!", "x".repeat(2_001)]) {
    const next = await readConsent(
      await answerConsent(app.handler, again, { decision: "allow", key }),
    );
    assert.match(
      next.html,
      key === "" ? /Enter your GW2 API key/ : /does not look like a GW2 API key/,
    );
    Object.assign(again, { request: next.request, cookie: next.cookie });
  }
  // A key without wallet or progression: said first, then accepted when the player insists.
  const partial = await answerConsent(app.handler, again, {
    decision: "allow",
    key: TEST_KEYS.noInventories,
  });
  const told = await readConsent(partial);
  assert.equal(partial.status, 200);
  assert.match(told.html, /This key lacks inventories/);
  const accepted = await answerConsent(app.handler, told, {
    decision: "allow",
    key: TEST_KEYS.noInventories,
  });
  assert.ok(redirectParams(accepted).get("code"));
});

Deno.test("discovery: the 401 challenge, both metadata documents from PRIORY_PUBLIC_URL, CORS", async () => {
  await using app = await startPublicApp();
  const bare = await app.handler(new Request(`${PUBLIC_URL}/mcp`, { method: "POST", body: "{}" }));
  assert.equal(bare.status, 401);
  assert.equal(
    bare.headers.get("www-authenticate"),
    'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"',
  );
  await bare.body?.cancel();
  // A forged Host changes nothing that is published.
  for (
    const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]
  ) {
    const response = await app.handler(
      new Request(`${PUBLIC_URL}${path}`, { headers: { host: "localhost:9999" } }),
    );
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
    assert.deepEqual(await response.json(), {
      resource: "http://localhost/mcp",
      authorization_servers: ["http://localhost"],
      resource_name: "Priory MCP",
      bearer_methods_supported: ["header"],
    });
  }
  const metadata = await (await app.handler(
    new Request(`${PUBLIC_URL}/.well-known/oauth-authorization-server`),
  )).json();
  assert.equal(metadata.issuer, PUBLIC_URL);
  assert.equal(metadata.token_endpoint, `${PUBLIC_URL}/token`);
  assert.deepEqual(metadata.code_challenge_methods_supported, ["S256"]);
  assert.ok(metadata.token_endpoint_auth_methods_supported.includes("none"));
  assert.equal(metadata.client_id_metadata_document_supported, true);
  assert.equal(metadata.authorization_response_iss_parameter_supported, true);
  for (
    const path of ["/token", "/register", "/revoke", "/.well-known/oauth-authorization-server"]
  ) {
    const preflight = await app.handler(
      new Request(`${PUBLIC_URL}${path}`, {
        method: "OPTIONS",
        headers: { origin: "https://inspector.example", "access-control-request-method": "POST" },
      }),
    );
    assert.equal(preflight.status, 204, path);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*", path);
  }
  // The static token still works, with X-GW2-Key, for operators.
  const operator = await accountWith(app, "test-token-0123456789abcdef");
  assert.equal(operator.status, 200);
  assert.equal(operator.name, undefined, "no X-GW2-Key: the tool says which header to add");
});

Deno.test("a new PRIORY_SECRET signs everyone out: an old sign-in's refresh is refused and its key deleted, not rotated into tokens that never work", async () => {
  // A metadata-document client (claude.ai, ChatGPT): its id is a URL, so unlike a registered
  // id it survives the new secret, and only the grant itself can say "sign in again".
  const clientId = "https://client.example/oauth/metadata.json";
  const fetchDocument = (url: string) =>
    Promise.resolve({ client_id: url, client_name: "Metadata client", redirect_uris: [CALLBACK] });
  using kv = await openMemoryKv();
  await using before = await startPublicApp({ kv, fetchDocument });
  const signedIn = await exchange(
    before,
    await authorize(before.handler, TEST_KEYS.full, { clientId }),
  );
  const pending = await authorize(before.handler, TEST_KEYS.veteran, { clientId });
  // The operator rotates the secret: a new deployment over the same database.
  await using after = await startPublicApp({
    kv,
    clock: before.clock,
    fetchDocument,
    env: { ...PUBLIC_ENV, PRIORY_SECRET: "a-brand-new-secret-after-the-rotation-987654" },
  });
  assert.equal((await accountWith(after, String(signedIn.body.access_token))).status, 401);
  const refreshed = await postForm(after.handler, "/token", {
    grant_type: "refresh_token",
    refresh_token: String(signedIn.body.refresh_token),
    client_id: clientId,
  });
  assert.deepEqual([refreshed.status, refreshed.body.error], [400, "invalid_grant"]);
  assert.match(String(refreshed.body.error_description), /sign in again/);
  // A code the old deployment issued cannot become tokens either.
  const exchanged = await exchange(after, pending);
  assert.deepEqual([exchanged.status, exchanged.body.error], [400, "invalid_grant"]);
  const grants = await Array.fromAsync(kv.list({ prefix: ["auth", "grant"] }));
  assert.deepEqual(grants, [], "keys sealed under the old secret are deleted, not kept 90 days");
});

Deno.test("a code exchanged twice at once, on two instances, issues one set of tokens and then revokes them", async () => {
  using kv = await openMemoryKv();
  await using one = await startPublicApp({ kv });
  await using two = await startPublicApp({ kv, clock: one.clock });
  const done = await authorize(one.handler, TEST_KEYS.full);
  const answers = await Promise.all([exchange(one, done), exchange(two, done)]);
  const won = answers.filter((answer) => answer.status === 200);
  assert.equal(won.length, 1, JSON.stringify(answers.map((answer) => answer.body)));
  const lost = answers.find((answer) => answer.status !== 200);
  assert.equal(lost?.body.error, "invalid_grant");
  assert.doesNotMatch(String(lost?.body.error_description), /retry/, "a code cannot be retried");
  // Whoever won may be the one holding a stolen copy: the sign-in ends, as for a reuse in turn.
  const token = String(won[0]?.body.access_token);
  assert.equal((await accountWith(one, token)).status, 401);
  assert.equal((await accountWith(two, token)).status, 401);
});

Deno.test("an invalid request from a client with a web redirect is explained on our page, not redirected: the server is no open redirector for whoever registers", async () => {
  await using app = await startPublicApp();
  // Anyone can register any https redirect, then send players a link to this server that
  // bounces them to it with a deliberate error (RFC 9700 §4.11.2).
  const landing = "https://phish.example/landing";
  const clientId = await registeredClient(app.handler, [landing]);
  const { challenge } = await pkce();
  for (
    const params of [
      { code_challenge_method: "plain", code_challenge: challenge },
      { code_challenge: undefined },
      { code_challenge: challenge, resource: "https://other.example/mcp" },
      { code_challenge: challenge, response_type: "token" },
    ]
  ) {
    const page = await openConsent(
      app.handler,
      authorizeUrl({ client_id: clientId, redirect_uri: landing, ...params }),
    );
    assert.equal(page.response.status, 400, JSON.stringify(params));
    assert.equal(page.response.headers.get("location"), null, "no automatic redirect");
    assert.match(page.html, /sign-in request cannot be used/);
    assert.equal(page.request, undefined, "no consent form");
    // The player may still go back, knowingly: a link naming the host, carrying the error.
    const link = /<a href="(https:\/\/phish\.example\/landing\?[^"]*)"/.exec(page.html)?.[1];
    assert.ok(link, page.html);
    assert.match(page.html, /Back to <bdi class="target">phish\.example<\/bdi>/);
    const back = new URL(link.replaceAll("&amp;", "&")).searchParams;
    assert.ok(back.get("error"));
    assert.equal(back.get("state"), "state-123");
    assert.equal(back.get("iss"), PUBLIC_URL);
  }
});

Deno.test("on https the consent cookie is a __Host- cookie (Secure, Path=/, no Domain): a sibling subdomain cannot plant or shadow it", async () => {
  const origin = "https://priory.example";
  await using app = await startPublicApp({
    env: {
      ...PUBLIC_ENV,
      PRIORY_PUBLIC_URL: origin,
      MCP_ALLOWED_HOSTS: "priory.example,localhost",
    },
  });
  const clientId = await registeredClient(app.handler);
  const { challenge } = await pkce();
  const url = new URL(
    authorizeUrl({
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      resource: `${origin}/mcp`,
    }),
  );
  const page = await openConsent(app.handler, `${origin}${url.pathname}${url.search}`);
  assert.equal(page.response.status, 200, page.html);
  const [line = ""] = page.response.headers.getSetCookie();
  assert.match(line, /^__Host-priory_consent_[\w-]+=[\w-]+;/);
  assert.match(line, /; Path=\/;/);
  assert.match(line, /; Secure/);
  assert.match(line, /; HttpOnly/);
  assert.match(line, /; SameSite=Strict/);
  assert.doesNotMatch(line, /Domain=/i);
  // The same cookie without its prefix — what a sibling subdomain could set — is not it.
  const planted = page.cookie?.replace(/^__Host-/, "");
  const refused = await answerConsent(app.handler, page, { decision: "deny", cookie: planted });
  assert.equal(refused.status, 403);
  await refused.body?.cancel();
  const answered = await answerConsent(app.handler, page, {
    decision: "allow",
    key: TEST_KEYS.full,
  });
  assert.ok(redirectParams(answered).get("code"));
  assert.match(
    answered.headers.getSetCookie()[0] ?? "",
    /^__Host-priory_consent_[\w-]+=; Path=\/; Max-Age=0/,
  );
});

Deno.test("two refreshes with the same token at once (two instances) both succeed; the first successor used wins, the other is then a replay", async () => {
  using kv = await openMemoryKv();
  await using one = await startPublicApp({ kv });
  await using two = await startPublicApp({ kv, clock: one.clock });
  const signedIn = await signIn(one.handler, TEST_KEYS.full);
  const refresh = (app: TestApp, token: string) =>
    postForm(app.handler, "/token", {
      grant_type: "refresh_token",
      refresh_token: token,
      client_id: signedIn.clientId,
    });
  // A client whose parallel requests all met the expired access token refreshes from each.
  const [a, b] = await Promise.all([
    refresh(one, signedIn.refreshToken),
    refresh(two, signedIn.refreshToken),
  ]);
  assert.deepEqual([a.status, b.status], [200, 200], JSON.stringify([a.body, b.body]));
  assert.notEqual(a.body.refresh_token, b.body.refresh_token);
  for (const answer of [a, b]) {
    assert.equal((await accountWith(one, String(answer.body.access_token))).status, 200);
  }
  // The client keeps one answer; its refresh token goes on, the other's is retired by that use.
  const kept = await refresh(two, String(b.body.refresh_token));
  assert.equal(kept.status, 200);
  const replayed = await refresh(one, String(a.body.refresh_token));
  assert.deepEqual([replayed.status, replayed.body.error], [400, "invalid_grant"]);
  assert.equal((await refresh(one, String(kept.body.refresh_token))).body.error, "invalid_grant");
});

Deno.test("a flood of made-up keys on the consent page: tokeninfo only, ten per sender, then refused without asking GW2; a player elsewhere still signs in", async () => {
  await using app = await startPublicApp();
  let page = await freshConsent(app.handler);
  const statuses: number[] = [];
  for (let n = 0; n < 15; n++) {
    const answer = await answerConsent(app.handler, page, {
      decision: "allow",
      key: madeUpKey(n),
      clientAddress: "203.0.113.5",
    });
    statuses.push(answer.status);
    page = await readConsent(answer);
  }
  assert.deepEqual(statuses, [...Array(10).fill(400), ...Array(5).fill(429)]);
  assert.match(page.html, /Too many keys were checked from your network just now/);
  const asked = (path: string) =>
    app.fake.control.requests.filter((entry) => entry.path === path).length;
  assert.deepEqual([asked("/v2/tokeninfo"), asked("/v2/account")], [10, 0]);
  // The same made-up key again costs nothing: it is remembered (by its HMAC).
  const again = await answerConsent(app.handler, page, {
    decision: "allow",
    key: madeUpKey(0),
    clientAddress: "198.51.100.20",
  });
  const told = await readConsent(again);
  assert.match(told.html, /GW2 did not accept this key/);
  assert.equal(asked("/v2/tokeninfo"), 10);
  const signedIn = await answerConsent(app.handler, told, {
    decision: "allow",
    key: TEST_KEYS.full,
    clientAddress: "198.51.100.20",
  });
  assert.ok(redirectParams(signedIn).get("code"));
});

Deno.test("a rotated refresh token works only for 60 s: a replay after that revokes the sign-in, even before its successor is used", async () => {
  await using app = await startPublicApp();
  const first = await signIn(app.handler, TEST_KEYS.full);
  const refresh = (token: string) =>
    postForm(app.handler, "/token", {
      grant_type: "refresh_token",
      refresh_token: token,
      client_id: first.clientId,
    });
  const second = await refresh(first.refreshToken);
  assert.equal(second.status, 200);
  // Within the grace the client may retry with the one before (its answer was lost).
  app.clock.advance(59_000);
  assert.equal((await refresh(first.refreshToken)).status, 200);
  // The retry does not extend the grace: 60 s after the rotation, the old token is a copy abroad.
  app.clock.advance(2_000);
  const replay = await refresh(first.refreshToken);
  assert.deepEqual([replay.status, replay.body.error], [400, "invalid_grant"]);
  assert.match(String(replay.body.error_description), /already used; the sign-in is revoked/);
  assert.equal((await refresh(String(second.body.refresh_token))).body.error, "invalid_grant");
  assert.equal((await accountWith(app, String(second.body.access_token))).status, 401);
});

Deno.test("/revoke with a refresh token already rotated out ends the sign-in too", async () => {
  await using app = await startPublicApp();
  const first = await signIn(app.handler, TEST_KEYS.full);
  const refresh = (token: string) =>
    postForm(app.handler, "/token", {
      grant_type: "refresh_token",
      refresh_token: token,
      client_id: first.clientId,
    });
  const second = await refresh(first.refreshToken);
  const third = await refresh(String(second.body.refresh_token));
  assert.equal(third.status, 200);
  // first.refreshToken is now retired (its successor was used): revoking it still ends it all.
  const revoked = await postForm(app.handler, "/revoke", {
    token: first.refreshToken,
    client_id: first.clientId,
  });
  assert.equal(revoked.status, 200);
  assert.equal((await accountWith(app, String(third.body.access_token))).status, 401);
  assert.equal((await refresh(String(third.body.refresh_token))).body.error, "invalid_grant");
  const grants = await Array.fromAsync(app.kv.list({ prefix: ["auth", "grant"] }));
  assert.deepEqual(grants, [], "the grant and its sealed key are gone");
});

Deno.test("one GW2 key cannot start sign-ins without end: past ten at once the consent page says to wait, nothing is stored", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const outcomes: number[] = [];
  let last = "";
  for (let n = 0; n < 14; n++) {
    const { challenge } = await pkce();
    const page = await openConsent(
      app.handler,
      authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
    );
    const answer = await answerConsent(app.handler, page, {
      decision: "allow",
      key: TEST_KEYS.full,
      clientAddress: "203.0.113.77",
    });
    outcomes.push(answer.status);
    last = await answer.text();
  }
  assert.deepEqual(outcomes, [...Array(10).fill(302), ...Array(4).fill(429)]);
  assert.match(last, /signed in too many times just now/);
  const stored = await Array.fromAsync(app.kv.list({ prefix: ["auth", "grant"] }));
  assert.equal(stored.length, 10);
  const asked = app.fake.control.requests.filter((entry) => entry.path === "/v2/tokeninfo");
  assert.equal(asked.length, 1, "the same good key is checked once, then answered from memory");
});

Deno.test("client metadata documents: fetched once per URL (a failure too), on port 443 only, one text for every failure, a few per host", async () => {
  const fetched: string[] = [];
  const failures: Record<string, string> = {
    "https://down.example/a": "it could not be reached",
    "https://down.example/b": "its TLS certificate could not be verified",
    "https://down.example/c": "it did not answer within 3 s",
    "https://down.example/d": "it answered HTTP 404",
  };
  const fetchDocument = (url: string) => {
    fetched.push(url);
    const failure = failures[url];
    if (failure !== undefined) return Promise.reject(new ClientDocumentError(failure));
    return Promise.resolve({
      client_id: url,
      client_name: "Doc client",
      redirect_uris: [CALLBACK],
    });
  };
  await using app = await startPublicApp({ fetchDocument });
  const { challenge } = await pkce();
  const open = (clientId: string) =>
    openConsent(
      app.handler,
      authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
    );
  const good = "https://client.example/oauth/client.json";
  for (let n = 0; n < 5; n++) assert.equal((await open(good)).response.status, 200);
  assert.deepEqual(fetched, [good], "kept, not fetched again");
  app.clock.advance(10 * 60_000 + 1);
  await open(good);
  assert.equal(fetched.length, 2, "fetched again once kept for 10 minutes");
  // Four ways to fail, one page: nothing tells a prober which hosts answer, or how.
  const pages = [];
  for (const url of Object.keys(failures)) {
    const page = await open(url);
    assert.equal(page.response.status, 400);
    pages.push(page.html);
  }
  assert.equal(new Set(pages).size, 1);
  assert.doesNotMatch(pages[0] ?? "", /reached|TLS|3 s|404/);
  for (const url of Object.keys(failures)) await open(url);
  assert.equal(fetched.length, 6, "a failure is kept too");
  app.clock.advance(60_001);
  await open("https://down.example/a");
  assert.equal(fetched.length, 7, "and fetched again after a minute");
  // A host is fetched a few times a minute at most, whatever the paths.
  for (let n = 0; n < 30; n++) await open(`https://victim.example/p${n}`);
  assert.equal(fetched.filter((url) => url.startsWith("https://victim.example/")).length, 5);
  // Another port is no metadata document at all: nothing is fetched.
  for (const url of ["https://victim.example:22/x", "https://victim.example:8443/x"]) {
    assert.match((await open(url)).html, /not known to this server/);
  }
  assert.equal(fetched.filter((url) => url.includes(":22/") || url.includes(":8443/")).length, 0);
});

Deno.test("an error for an app-link redirect is a page with a link, never an automatic bounce into the app", async () => {
  await using app = await startPublicApp();
  // Anyone may register app links - one that clones a repository included - then send players
  // a link whose request is broken on purpose (response_type=token).
  const links = [
    "cursor://anysphere.cursor-mcp/oauth/callback",
    "vscode://vscode.git/clone?url=https%3A%2F%2Fevil.example%2Frepo.git",
  ];
  const clientId = await registeredClient(app.handler, links);
  const { challenge } = await pkce();
  for (const redirect of links) {
    const page = await openConsent(
      app.handler,
      authorizeUrl({
        client_id: clientId,
        redirect_uri: redirect,
        code_challenge: challenge,
        response_type: "token",
      }),
    );
    assert.equal(page.response.status, 400, redirect);
    assert.equal(page.response.headers.get("location"), null, "no automatic redirect");
    assert.match(page.html, /sign-in request cannot be used/);
    const link = /<a href="([a-z]+:\/\/[^"]*)" rel="noreferrer">Back to/.exec(page.html)?.[1];
    assert.ok(link?.startsWith(redirect.split("?")[0] ?? ""), page.html);
  }
  // A loopback http: redirect (the native client's own listener) still gets its error at once.
  const local = await registeredClient(app.handler);
  const page = await openConsent(
    app.handler,
    authorizeUrl({ client_id: local, redirect_uri: CALLBACK, response_type: "token" }),
  );
  assert.equal(redirectParams(page.response).get("error"), "unsupported_response_type");
});

Deno.test("after Allow with an app-link redirect, the page hands the answer to the browser and says the tab can be closed", async () => {
  await using app = await startPublicApp();
  const cursor = "cursor://anysphere.cursor-mcp/oauth/callback";
  const { body } = await register(app.handler, { redirect_uris: [cursor], client_name: "Cursor" });
  const { challenge } = await pkce();
  const page = await openConsent(
    app.handler,
    authorizeUrl({
      client_id: String(body.client_id),
      redirect_uri: cursor,
      code_challenge: challenge,
    }),
  );
  const done = await answerConsent(app.handler, page, { decision: "allow", key: TEST_KEYS.full });
  assert.equal(done.status, 200);
  assert.equal(done.headers.get("location"), null);
  const html = await done.text();
  assert.match(html, /you can close this tab and return to <bdi class="app">Cursor<\/bdi>/);
  const refresh = /<meta http-equiv="refresh" content="0; url=([^"]+)">/.exec(html)?.[1];
  assert.ok(refresh, html);
  const answer = new URL(refresh.replaceAll("&amp;", "&"));
  assert.equal(`${answer.protocol}//${answer.host}${answer.pathname}`, cursor);
  assert.ok(answer.searchParams.get("code"));
  assert.equal(answer.searchParams.get("state"), "state-123");
  assert.match(html, /<a href="cursor:\/\/anysphere\.cursor-mcp\/oauth\/callback\?code=/);
  assert.match(done.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
  assert.equal(done.headers.get("cache-control"), "no-store");
});

Deno.test("a form sent again after its answer says it was already sent (not that it was tampered with); expired and tampered pages have a way back", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const open = () => freshConsent(app.handler, { clientId });
  const page = await open();
  const allowed = await answerConsent(app.handler, page, {
    decision: "allow",
    key: TEST_KEYS.full,
  });
  assert.equal(allowed.status, 302);
  // The browser dropped the cookie the answer cleared; Back, then Allow again.
  const again = await answerConsent(app.handler, page, {
    decision: "allow",
    key: TEST_KEYS.full,
    cookie: undefined,
  });
  const againHtml = await again.text();
  assert.equal(again.status, 400);
  assert.match(againHtml, /already sent/);
  assert.doesNotMatch(againHtml, /could not be verified/);
  assert.match(againHtml, /<a href="\/">What Priory MCP is/);
  // Expired: a link back to the app, which is told why, and the front page.
  const stale = await open();
  app.clock.advance(10 * 60_000 + 1);
  const expired = await (await answerConsent(app.handler, stale, {
    decision: "allow",
    key: TEST_KEYS.full,
  })).text();
  assert.match(expired, /has expired/);
  const back = /<a href="(http:\/\/127\.0\.0\.1:53682\/callback\?[^"]*)"/.exec(expired)?.[1];
  assert.ok(back, expired);
  const told = new URL(back.replaceAll("&amp;", "&")).searchParams;
  assert.deepEqual([told.get("error"), told.get("state")], ["access_denied", "state-123"]);
  assert.match(expired, /<a href="\/">/);
  // Tampered: nothing of it can be trusted, so only the front page.
  const forged = await (await answerConsent(app.handler, await open(), {
    decision: "allow",
    key: TEST_KEYS.full,
    request: "bm90LWEtZm9ybQ.AAAA",
  })).text();
  assert.match(forged, /could not be verified/);
  assert.match(forged, /<a href="\/">/);
  assert.doesNotMatch(forged, /127\.0\.0\.1:53682/);
});

Deno.test("the consent page names a metadata-document client's domain (its one checked identity), and isolates every name in <bdi>", async () => {
  const clientId = "https://tools.example/oauth/client.json";
  // A right-to-left override would turn the sentence around; a bidi-isolated name cannot.
  const fetchDocument = (url: string) =>
    Promise.resolve({
      client_id: url,
      client_name: "\u05e9\u05dc\u05d5\u05dd Claude",
      redirect_uris: [CALLBACK],
    });
  await using app = await startPublicApp({ fetchDocument });
  const { challenge } = await pkce();
  const page = await openConsent(
    app.handler,
    authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
  );
  assert.match(
    page.html,
    /published at <bdi class="target">tools\.example<\/bdi>: this address is checked/,
  );
  assert.match(page.html, /<bdi class="app">\u05e9\u05dc\u05d5\u05dd Claude<\/bdi>/);
  assert.match(page.html, /back to <bdi class="target">127\.0\.0\.1:53682<\/bdi>/);
  // A registered client has no checked domain: none is claimed.
  const registered = await openConsent(
    app.handler,
    authorizeUrl({
      client_id: await registeredClient(app.handler),
      redirect_uri: CALLBACK,
      code_challenge: challenge,
    }),
  );
  assert.doesNotMatch(registered.html, /this address is checked/);
});

Deno.test("a signed client_id or form with its MAC spelled another way (padding, spare bits, a stray character) is refused", async () => {
  await using app = await startPublicApp();
  const clientId = await registeredClient(app.handler);
  const { challenge } = await pkce();
  const mac = clientId.slice(clientId.lastIndexOf(".") + 1);
  // 32 bytes are 43 base64url characters: the last carries 2 spare bits a lenient decoder drops.
  const spare = (text: string) => {
    const last = text.at(-1) ?? "A";
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    return `${text.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 1]}`;
  };
  const spellings = (signed: string) => [`${signed}=`, spare(signed), `${signed}!`, `${signed}.`];
  assert.equal(mac.length, 43);
  for (const id of spellings(clientId)) {
    const page = await openConsent(
      app.handler,
      authorizeUrl({ client_id: id, redirect_uri: CALLBACK, code_challenge: challenge }),
    );
    assert.match(page.html, /not known to this server/, id);
  }
  const page = await openConsent(
    app.handler,
    authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
  );
  for (const request of spellings(page.request ?? "")) {
    const answer = await answerConsent(app.handler, page, {
      decision: "allow",
      key: TEST_KEYS.full,
      request,
    });
    assert.equal(answer.status, 403, request.slice(-6));
    assert.match(await answer.text(), /could not be verified/);
  }
  const right = await answerConsent(app.handler, page, { decision: "allow", key: TEST_KEYS.full });
  assert.ok(redirectParams(right).get("code"), "the canonical spelling still works");
});

Deno.test("registration refuses a redirect host that is neither a DNS name nor an IP address (no quote, semicolon or comma reaches the CSP header)", async () => {
  await using app = await startPublicApp();
  for (
    const uri of [
      'https://a"b.example/cb',
      "https://x.example;script-src*/cb",
      "https://a,b.example/cb",
      "https://a%22b.example/cb",
    ]
  ) {
    const { status, body } = await register(app.handler, { redirect_uris: [uri] });
    assert.deepEqual([status, body.error], [400, "invalid_redirect_uri"], uri);
  }
});

Deno.test("a key with only the account permission is told which tools will not work, and priory_account is not among them", async () => {
  await using app = await startPublicApp();
  const page = await freshConsent(app.handler);
  const told = await readConsent(
    await answerConsent(app.handler, page, { decision: "allow", key: TEST_KEYS.accountOnly }),
  );
  const notice = /<p class="notice notice-warn" role="alert">([^<]*)/.exec(told.html)?.[1] ?? "";
  assert.match(notice, /This key lacks inventories, wallet, characters, unlocks,/);
  assert.match(notice, /Material storage \(priory_account_materials\)/);
  // progression is optional for the account summary, but priory_today cannot do without it.
  assert.match(notice, /Dailies and weeklies done and left \(priory_today\)/);
  assert.doesNotMatch(notice, /Your account \(priory_account\)/);
  // The account tool does answer with that key.
  const code = redirectParams(
    await answerConsent(app.handler, told, { decision: "allow", key: TEST_KEYS.accountOnly }),
  ).get("code");
  assert.ok(code);
});

Deno.test("behind a proxy (PRIORY_CLIENT_ADDRESS_HEADER) the limits count by the address it sets: one sender's flood is refused, another player signs in", async () => {
  await using app = await startPublicApp({
    env: { ...PUBLIC_ENV, PRIORY_CLIENT_ADDRESS_HEADER: "X-Forwarded-For" },
  });
  let page = await freshConsent(app.handler);
  const statuses: number[] = [];
  for (let n = 0; n < 12; n++) {
    // The sender forges the entries it controls; the proxy appends the address it saw.
    const answer = await answerConsent(app.handler, page, {
      decision: "allow",
      key: madeUpKey(n),
      clientAddress: "10.0.0.2",
      headers: { "x-forwarded-for": `198.51.100.${n}, 203.0.113.5` },
    });
    statuses.push(answer.status);
    page = await readConsent(answer);
  }
  assert.deepEqual(statuses, [...Array(10).fill(400), 429, 429]);
  // Every request came from the proxy (10.0.0.2): another player behind it is not held back.
  const signedIn = await answerConsent(app.handler, page, {
    decision: "allow",
    key: TEST_KEYS.full,
    clientAddress: "10.0.0.2",
    headers: { "x-forwarded-for": "203.0.113.99" },
  });
  assert.ok(redirectParams(signedIn).get("code"));
});
