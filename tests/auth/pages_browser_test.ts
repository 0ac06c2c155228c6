/**
 * The players' pages in a real browser (headless Chromium over the DevTools protocol): the front
 * page on a phone in German, whole on the screen and refused inside a frame; the sign-out page
 * filled and sent, ending the sign-in; and the gw2.me sign-in clicked through - the consent
 * page's gw2.me button, the (fake) gw2.me's page, back to Priory, on to the app with a code that
 * signs the player in. The app runs in process behind a real loopback server.
 *
 * Without Chromium the tests are skipped, saying so in their names; with
 * `PRIORY_REQUIRE_BROWSER=1` (set by `.ci/run`) a missing Chromium fails them instead.
 */

import assert from "node:assert/strict";
import { TEST_KEYS } from "../fake_gw2/mod.ts";
import { modernPost } from "../support/app.ts";
import { browserGate, type Page, within } from "../support/browser.ts";
import { pkce } from "../support/oauth.ts";
import { type ServedPublicApp, servePublicApp } from "../support/served_public.ts";

const BROWSER = await browserGate();

/** Runs `action` in the page and waits for the next page to load. */
async function loadAfter(page: Page, action: string): Promise<void> {
  const loaded = within<void>(15_000, "the next page to load", (resolve) => {
    return page.on("Page.loadEventFired", () => resolve());
  });
  await page.evaluate(action);
  await loaded;
}

/** A phone: 390 px wide, the browser asking for `language`. */
async function phone(page: Page, language: string): Promise<void> {
  await page.send("Emulation.setDeviceMetricsOverride", {
    width: 390,
    height: 844,
    deviceScaleFactor: 1,
    mobile: true,
  });
  await page.send("Emulation.setUserAgentOverride", {
    userAgent: "Mozilla/5.0 (Linux; Android 14) priory-tests",
    acceptLanguage: language,
  });
}

/**
 * A sign-in made in the browser: an app registers, the browser opens its authorization URL and
 * `answer` does what the player does on the consent page (and beyond); the app's redirect gets
 * the code, which the app exchanges. The access token.
 */
async function signInInBrowser(
  page: Page,
  served: ServedPublicApp,
  answer: (page: Page) => Promise<void>,
): Promise<string> {
  const { app, origin, callback, answers } = served;
  const registered = await app.handler(
    new Request(`${origin}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [callback], client_name: "Browser app" }),
    }),
  );
  const { client_id: clientId } = await registered.json();
  const { verifier, challenge } = await pkce();
  const url = new URL(`${origin}/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: callback,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: `${origin}/mcp`,
    state: "tab-9",
  }).toString();
  const before = answers.length;
  await page.navigate(url.href);
  await answer(page);
  assert.equal(answers.length, before + 1, "the app's redirect got the answer");
  const got = answers.at(-1);
  assert.equal(got?.get("state"), "tab-9");
  assert.equal(got?.get("iss"), origin);
  const exchanged = await app.handler(
    new Request(`${origin}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: got?.get("code") ?? "",
        code_verifier: verifier,
        redirect_uri: callback,
        client_id: clientId,
        resource: `${origin}/mcp`,
      }).toString(),
    }),
  );
  const tokens = await exchanged.json();
  return String(tokens.access_token);
}

/** Whether an access token reaches the account tools; the account's name when it does. */
async function accountOf(
  handler: (request: Request) => Promise<Response>,
  access: string,
): Promise<string | number> {
  const response = await handler(
    modernPost("tools/call", { name: "priory_account", arguments: {} }, {
      authorization: `Bearer ${access}`,
    }),
  );
  if (response.status !== 200) {
    await response.body?.cancel();
    return response.status;
  }
  return (await response.json()).result.structuredContent.name;
}

Deno.test({
  name:
    `front page in Chromium: on a phone, in German, the address to add, nothing wider than the screen, refused in a frame${BROWSER.suffix}`,
  ignore: BROWSER.skipped,
  async fn() {
    await using served = await servePublicApp({
      env: { PRIORY_OPERATOR: "Gilde der Quaggans", PRIORY_OPERATOR_URL: "https://example.com/" },
    });
    await using browser = await BROWSER.launch();
    const page = await browser.newPage();
    await phone(page, "de-DE,de;q=0.9,en;q=0.5");
    await page.navigate(`${served.origin}/`);
    assert.equal(await page.evaluate("document.documentElement.lang"), "de");
    assert.equal(await page.evaluate("document.querySelector('h1').textContent"), "Priory MCP");
    assert.equal(
      await page.evaluate("document.querySelector('.address code').textContent"),
      `${served.origin}/mcp`,
    );
    assert.deepEqual(
      await page.evaluate("[...document.querySelectorAll('.hosts dt')].map((d) => d.textContent)"),
      ["Claude", "ChatGPT", "VS Code", "Cursor", "Claude Code"],
    );
    assert.equal(
      await page.evaluate("document.querySelector('a[href=\"/signout\"]').textContent"),
      "überall abmelden",
    );
    assert.equal(
      await page.evaluate("document.querySelector('.operator bdi').textContent"),
      "Gilde der Quaggans",
    );
    assert.equal(await page.evaluate("document.scripts.length"), 0);
    assert.ok(
      Number(await page.evaluate("document.documentElement.scrollWidth")) <= 390,
      "no horizontal scrolling at 390 px, the JSON snippets included",
    );
    // Inside a frame the browser refuses it.
    await page.navigate(served.framing("/"));
    const framed = await page.evaluate(
      `(() => { try { const d = document.getElementById('f').contentDocument; return d === null || !d.querySelector('h1') ? 'blocked' : 'shown'; } catch { return 'blocked'; } })()`,
    );
    assert.equal(framed, "blocked");
    assert.ok(
      page.errors.some((error) => /frame-ancestors|Refused to (display|frame)/i.test(error)),
      `the browser refused it for its CSP: ${page.errors.join(" | ")}`,
    );
  },
});

Deno.test({
  name: `sign-out page in Chromium: a key of the account, sent, ends its sign-in${BROWSER.suffix}`,
  ignore: BROWSER.skipped,
  async fn() {
    await using served = await servePublicApp();
    await using browser = await BROWSER.launch();
    const page = await browser.newPage();
    await phone(page, "en");
    const access = await signInInBrowser(page, served, (consent) =>
      loadAfter(
        consent,
        `(() => {
          document.querySelector('input[name="gw2_key"]').value = ${JSON.stringify(TEST_KEYS.full)};
          document.querySelector('button[value="allow"]').click();
        })()`,
      ));
    const handler = served.app.handler;
    assert.equal(await accountOf(handler, access), "Priory Tester.4821");
    await page.navigate(`${served.origin}/signout`);
    assert.equal(await page.evaluate("document.querySelectorAll('form').length"), 1);
    await loadAfter(
      page,
      `(() => {
        document.querySelector('input[name="gw2_key"]').value = ${
        JSON.stringify(TEST_KEYS.accountOnly)
      };
        document.querySelector('form button').click();
      })()`,
    );
    assert.match(
      String(await page.evaluate("document.querySelector('[role=status]').textContent")),
      /Signed out: 1 sign-in of Priory Tester\.4821 ended/,
    );
    assert.equal(await accountOf(handler, access), 401);
    assert.ok(
      Number(await page.evaluate("document.documentElement.scrollWidth")) <= 390,
      "no horizontal scrolling at 390 px",
    );
  },
});

Deno.test({
  name:
    `gw2.me in Chromium: consent page -> Sign in with gw2.me -> gw2.me's page -> back -> the app gets a code that signs in${BROWSER.suffix}`,
  ignore: BROWSER.skipped,
  async fn() {
    await using served = await servePublicApp({ gw2me: true });
    await using browser = await BROWSER.launch();
    const page = await browser.newPage();
    await phone(page, "en");
    const access = await signInInBrowser(page, served, async (consent) => {
      await loadAfter(consent, `document.querySelector('button[value="gw2me"]').click()`);
      assert.match(String(await consent.evaluate("document.title")), /Fake gw2\.me/);
      await loadAfter(
        consent,
        `[...document.querySelectorAll('a')].find((a) => a.textContent === 'Sign in as tester').click()`,
      );
    });
    assert.equal(await accountOf(served.app.handler, access), "Priory Tester.4821");
    assert.equal(served.gw2me?.minted, 1);
    assert.deepEqual(page.errors, []);
  },
});
