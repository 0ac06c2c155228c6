/**
 * The front page (`GET /`) with Request objects: only in the public mode, self-contained and
 * unframeable, in the language the browser asks for, naming the address to add and how, the
 * permissions and what is stored, the way to sign out, and (when set) who runs the server - a
 * hostile operator name shown as text.
 */

import assert from "node:assert/strict";
import { startTestApp } from "../support/app.ts";
import {
  authorizeUrl,
  CALLBACK,
  openConsent,
  pkce,
  PUBLIC_URL,
  registeredClient,
  RESOURCE,
  startPublicApp,
} from "../support/oauth.ts";

function get(path: string, headers: Record<string, string> = {}, method = "GET"): Request {
  return new Request(`${PUBLIC_URL}${path}`, { method, headers });
}

Deno.test("front page: the token mode keeps / and /signout 404", async () => {
  await using app = await startTestApp();
  for (const path of ["/", "/signout"]) {
    const response = await app.handler(get(path));
    assert.equal(response.status, 404, path);
    await response.body?.cancel();
  }
});

Deno.test("front page: what the server is, the address and how to add it, the permissions, what is stored, the sign-out", async () => {
  await using app = await startPublicApp();
  const response = await app.handler(get("/"));
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/html; charset=utf-8/);
  assert.match(response.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
  assert.match(response.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  assert.equal(response.headers.get("vary"), "Accept-Language");
  const html = await response.text();
  assert.match(html, /^<!doctype html>\n<html lang="en">/);
  assert.doesNotMatch(html, /<script|<link|src="http/i, "self-contained, no script");
  assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  assert.ok(html.includes(`<code>${RESOURCE}</code>`), "the address to add");
  for (const host of ["Claude", "ChatGPT", "VS Code", "Cursor", "Claude Code"]) {
    assert.ok(html.includes(`<dt>${host}</dt>`), host);
  }
  assert.ok(html.includes("Add custom connector"), "how, in Claude");
  assert.ok(
    html.includes(`&quot;url&quot;: &quot;${RESOURCE}&quot;`),
    "the VS Code and Cursor JSON",
  );
  assert.ok(html.includes(`claude mcp add --transport http priory ${RESOURCE}`));
  assert.match(html, /<td>Wallet \(priory_account_wallet\)<\/td><td>wallet<\/td>/);
  assert.match(html, /encrypted with the server&#39;s secret/);
  assert.match(html, /nothing else about you/);
  assert.match(html, /<a href="\/signout">sign out everywhere<\/a>/);
  assert.doesNotMatch(html, /gw2\.me/, "no gw2.me unless the operator configured it");
  assert.doesNotMatch(html, /class="muted foot operator"/, "no operator line unless one is set");
});

Deno.test("front page: in the five GW2 languages by Accept-Language, English otherwise", async () => {
  await using app = await startPublicApp();
  const cases: [string, string, RegExp][] = [
    ["de-AT,de;q=0.9,en;q=0.5", "de", /Zu deiner App hinzufügen/],
    ["fr-CH, fr;q=0.9", "fr", /L’ajouter à votre application/],
    ["es", "es", /Añádelo a tu aplicación/],
    ["zh-Hant", "zh", /添加到你的应用/],
    ["ja, ko", "en", /Add it to your app/],
  ];
  for (const [header, lang, heading] of cases) {
    const response = await app.handler(get("/", { "accept-language": header }));
    assert.equal(response.headers.get("content-language"), lang, header);
    const html = await response.text();
    assert.ok(html.includes(`<html lang="${lang}">`), header);
    assert.match(html, heading, header);
    assert.ok(html.includes(RESOURCE), header);
  }
});

Deno.test("front page: HEAD answers the headers alone; other methods 405", async () => {
  await using app = await startPublicApp();
  const head = await app.handler(get("/", {}, "HEAD"));
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  const post = await app.handler(get("/", {}, "POST"));
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET");
  await post.body?.cancel();
});

Deno.test("front page: the operator's name (as text, isolated) and contact link; gw2.me when configured", async () => {
  await using app = await startPublicApp({
    env: {
      PRIORY_OPERATOR: `<img src=x onerror="alert(1)"> Quaggan & Co`,
      PRIORY_OPERATOR_URL: "https://example.com/privacy",
      PRIORY_GW2ME_CLIENT_ID: "priory",
      PRIORY_GW2ME_CLIENT_SECRET: "secret",
    },
  });
  const html = await (await app.handler(get("/"))).text();
  assert.ok(
    html.includes(
      `Run by <bdi>&lt;img src=x onerror=&quot;alert(1)&quot;&gt; Quaggan &amp; Co</bdi>`,
    ),
  );
  assert.doesNotMatch(html, /<img/);
  assert.ok(
    html.includes(
      `<a href="https://example.com/privacy" rel="noopener noreferrer">Contact and privacy</a>`,
    ),
  );
  assert.match(html, /Sign in with gw2\.me/);
  assert.match(html, /gw2\.me&#39;s sign-in token instead of a key/);
  assert.doesNotMatch(html, /secret"|>secret</, "the client secret is nowhere on the page");
});

Deno.test("operator: named on the consent and sign-out pages too, and on none when unset", async () => {
  const operator = {
    PRIORY_OPERATOR: "Quaggan Guild",
    PRIORY_OPERATOR_URL: "https://example.com/contact",
  };
  for (const env of [operator, {}]) {
    await using app = await startPublicApp({ env });
    const clientId = await registeredClient(app.handler);
    const { challenge } = await pkce();
    const consent = await openConsent(
      app.handler,
      authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
    );
    const signout = await (await app.handler(get("/signout"))).text();
    const front = await (await app.handler(get("/"))).text();
    for (
      const [page, html] of [
        ["consent", consent.html],
        ["sign-out", signout],
        ["front", front],
      ] as const
    ) {
      const line =
        '<p class="muted foot operator">Run by <bdi>Quaggan Guild</bdi> \u00b7 <a href="https://example.com/contact" rel="noopener noreferrer">Contact and privacy</a></p>';
      assert.equal(html.includes(line), env === operator, `${page}: ${JSON.stringify(env)}`);
      assert.equal(html.includes("operator"), env === operator, page);
    }
  }
});
