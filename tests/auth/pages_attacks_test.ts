/**
 * Every page the public server shows, attacked from outside: each one - the front page, the
 * sign-out page and its answers, the consent page and every page of its flow, the gw2.me
 * callback's - refuses to be framed and runs no script (its headers and its HTML both checked);
 * no `Accept-Language` gets into a page or a header; the operator's name and link, however
 * hostile, are text and an escaped https link.
 */

import assert from "node:assert/strict";
import { TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import { atGw2me, backFromGw2me, chooseGw2me, startGw2meApp } from "../support/gw2me.ts";
import {
  answerConsent,
  authorizeUrl,
  CALLBACK,
  freshConsent,
  type Handler,
  openConsent,
  pkce,
  PUBLIC_URL,
  readConsent,
  register,
  registeredClient,
} from "../support/oauth.ts";

/** A page as a response, or as a consent-page helper read it (its body already read). */
type Page = Response | { readonly response: Response; readonly html: string };

/** Checks one page's headers and HTML; `name` says which page failed. */
async function assertLockedPage(name: string, page: Page): Promise<string> {
  const response = page instanceof Response ? page : page.response;
  assert.match(response.headers.get("content-type") ?? "", /^text\/html; charset=utf-8/, name);
  const csp = response.headers.get("content-security-policy") ?? "";
  for (const directive of ["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"]) {
    assert.ok(csp.includes(directive), `${name}: ${directive} in ${csp}`);
  }
  assert.doesNotMatch(csp, /script-src|'unsafe-eval'|\*/, name);
  assert.equal(response.headers.get("x-frame-options"), "DENY", name);
  assert.equal(response.headers.get("x-content-type-options"), "nosniff", name);
  const html = page instanceof Response ? await response.text() : page.html;
  assert.doesNotMatch(html, /<script|<iframe|<object|<embed/i, name);
  assert.doesNotMatch(html, /(?:href|src|action)\s*=\s*["']?\s*javascript:/i, name);
  assert.doesNotMatch(html, /\son[a-z]+\s*=/i, `${name}: an event handler attribute`);
  return html;
}

/** GET `path` with `headers`. */
function get(handler: Handler, path: string, headers: Record<string, string> = {}) {
  return handler(new Request(`${PUBLIC_URL}${path}`, { headers }));
}

Deno.test("every page refuses framing and runs no script: front, sign-out, consent and its flow, the gw2.me callback's", async () => {
  await using started = await startGw2meApp();
  const { app, gw2me } = started;
  const { handler } = app;
  const pages: [string, Page][] = [];
  pages.push(["front", await get(handler, "/")]);
  const signout = await get(handler, "/signout");
  const cookie = signout.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  const field = /name="request" value="([^"]*)"/.exec(await signout.clone().text())?.[1] ?? "";
  pages.push(["sign-out", signout]);
  const postSignOut = (body: Record<string, string>, withCookie: boolean) =>
    handler(
      new Request(`${PUBLIC_URL}/signout`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: PUBLIC_URL,
          ...(withCookie ? { cookie } : {}),
        },
        body: new URLSearchParams(body).toString(),
      }),
    );
  pages.push(["sign-out forged", await postSignOut({ gw2_key: TEST_KEYS.full }, false)]);
  const request = field.replaceAll("&amp;", "&");
  pages.push(["sign-out done", await postSignOut({ request, gw2_key: TEST_KEYS.full }, true)]);
  pages.push(["sign-out used", await postSignOut({ request, gw2_key: TEST_KEYS.full }, true)]);
  // The consent flow.
  const consent = await freshConsent(handler);
  pages.push(["consent", consent]);
  pages.push([
    "consent, key rejected",
    await answerConsent(handler, consent, { decision: "allow", key: UNKNOWN_KEY }),
  ]);
  pages.push(["consent, used", await answerConsent(handler, consent, { decision: "allow" })]);
  pages.push([
    "consent, forged",
    await answerConsent(handler, consent, { decision: "allow", request: "x.y", cookie: undefined }),
  ]);
  const { challenge } = await pkce();
  pages.push([
    "authorize, unknown client",
    await get(handler, `/authorize?client_id=pcl.nope&redirect_uri=${CALLBACK}`),
  ]);
  const web = await registeredClient(handler, ["https://app.example/cb"]);
  pages.push([
    "authorize, error with a link back",
    await openConsent(
      handler,
      authorizeUrl({ client_id: web, redirect_uri: "https://app.example/cb", response_type: "x" }),
    ),
  ]);
  const cursor = "cursor://anysphere.cursor-mcp/oauth/callback";
  const { body } = await register(handler, { redirect_uris: [cursor], client_name: "Cursor" });
  const appLink = await openConsent(
    handler,
    authorizeUrl({
      client_id: String(body.client_id),
      redirect_uri: cursor,
      code_challenge: challenge,
    }),
  );
  pages.push([
    "done, app link",
    await answerConsent(handler, appLink, { decision: "allow", key: TEST_KEYS.full }),
  ]);
  // The gw2.me callback's pages: a stray state, and the consent page again after Deny there.
  pages.push(["gw2.me callback, unknown state", await get(handler, "/gw2me/callback?state=x")]);
  const chose = await chooseGw2me(handler);
  const denied = await atGw2me(gw2me, chose.location, "deny");
  pages.push(["gw2.me callback, denied", await backFromGw2me(handler, denied, chose.cookie)]);
  for (const [name, response] of pages) await assertLockedPage(name, response);
  assert.equal(pages.length, 14);
});

Deno.test("no Accept-Language gets into a page or a header: only the five languages are ever named", async () => {
  await using started = await startGw2meApp();
  const { handler } = started.app;
  const hostile = [
    '"><script>alert(1)</script>',
    "en;q=1, <img src=x onerror=alert(1)>",
    `${"xx-".repeat(3_000)}de`,
    "de;q=NaN, fr;q=Infinity, zh;q=-1",
    Array.from({ length: 200 }, (_, n) => `x${n}`).join(",") + ",de",
    "*",
  ];
  for (const header of hostile) {
    for (const path of ["/", "/signout", "/gw2me/callback?state=x"]) {
      const response = await get(handler, path, { "accept-language": header });
      const lang = response.headers.get("content-language") ?? "";
      assert.ok(["en", "de", "fr", "es", "zh"].includes(lang), `${path}: ${lang}`);
      const html = await assertLockedPage(`${path} with ${header.slice(0, 30)}`, response);
      assert.ok(html.includes(`<html lang="${lang}">`), path);
      assert.doesNotMatch(html, /alert\(|xx-|x199/, path);
    }
    const consent = await freshConsent(handler);
    const answered = await readConsent(
      await answerConsent(handler, consent, {
        decision: "allow",
        key: UNKNOWN_KEY,
        headers: { "accept-language": header },
      }),
    );
    assert.doesNotMatch(answered.html, /alert\(|xx-|x199/);
  }
});

Deno.test("a hostile operator name and link stay text and an escaped https link, on every page", async () => {
  await using started = await startGw2meApp({
    env: {
      PRIORY_OPERATOR: '\u202e<script>alert(1)</script>"><a href="javascript:x">{link}',
      PRIORY_OPERATOR_URL: 'https://example.com/"><script>alert(2)</script>',
    },
  });
  const { handler } = started.app;
  const consent = await freshConsent(handler);
  for (
    const [name, response] of [
      ["front", await get(handler, "/")],
      ["sign-out", await get(handler, "/signout")],
      ["consent", consent],
    ] as const
  ) {
    const html = await assertLockedPage(name, response);
    const line = /<p class="muted foot operator">(.*)<\/p>/.exec(html)?.[1] ?? "";
    assert.match(line, /^Run by <bdi>\u202e&lt;script&gt;alert\(1\)&lt;\/script&gt;&quot;&gt;/);
    assert.match(line, /\{link\}<\/bdi>/, `${name}: a placeholder in the name stays text`);
    const href = /<a href="([^"]*)"/.exec(line)?.[1] ?? "";
    assert.ok(href.startsWith("https://example.com/"), href);
    assert.doesNotMatch(href, /[<>"]|script>/);
  }
});
