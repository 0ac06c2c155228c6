/**
 * The consent page in a real browser (headless Chromium over the DevTools protocol): rendered on
 * a phone-sized screen in the browser's language, the client's self-chosen name shown as text and
 * marked unverified, filled and submitted — a key GW2 rejects explained on the page, a good one
 * sent back to the client's redirect with a code that signs the player in — and refused inside a
 * frame. The app runs in process behind a real loopback server, because a browser needs one.
 *
 * Without Chromium the tests are skipped, saying so in their names; with
 * `PRIORY_REQUIRE_BROWSER=1` (set by `.ci/run`) a missing Chromium fails them instead.
 */

import assert from "node:assert/strict";
import { TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import { modernPost, type TestApp } from "../support/app.ts";
import { browserGate, type Page, within } from "../support/browser.ts";
import { pkce, PUBLIC_ENV, startPublicApp } from "../support/oauth.ts";

const BROWSER = await browserGate();

/** A name a hostile client might give itself. */
const HOSTILE_NAME = `<img src=x onerror="window.pwned=1"> "Quaggan" & Co`;

/** The public app served on a loopback port, its public URL that origin, plus a callback. */
interface Served extends AsyncDisposable {
  readonly app: TestApp;
  readonly origin: string;
  readonly callback: string;
  /** The queries the callback received. */
  readonly answers: URLSearchParams[];
  /** A page on the same server that frames `src`. */
  readonly framing: (src: string) => string;
}

async function serve(): Promise<Served> {
  const state: { app?: TestApp } = {};
  const answers: URLSearchParams[] = [];
  const frames = new Map<string, string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/callback") {
      answers.push(url.searchParams);
      return new Response("<!doctype html><title>back in the app</title><p>Signed in.</p>", {
        headers: { "content-type": "text/html" },
      });
    }
    const frame = frames.get(url.pathname);
    if (frame !== undefined) {
      return new Response(frame, { headers: { "content-type": "text/html" } });
    }
    if (state.app === undefined) return new Response("starting", { status: 503 });
    return state.app.handler(request);
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const started = await startPublicApp({ env: { ...PUBLIC_ENV, PRIORY_PUBLIC_URL: origin } });
  state.app = started;
  return {
    app: started,
    origin,
    callback: `${origin}/callback`,
    answers,
    framing: (src) => {
      const path = `/frame-${frames.size}`;
      frames.set(
        path,
        `<!doctype html><iframe id="f" src="${src}" width="400" height="400"></iframe>`,
      );
      return `${origin}${path}`;
    },
    [Symbol.asyncDispose]: async () => {
      await started[Symbol.asyncDispose]();
      await server.shutdown();
    },
  };
}

/** A registered client named {@linkcode HOSTILE_NAME} and an authorization URL for it. */
async function authorizationFor(
  served: Served,
): Promise<{ url: string; verifier: string; clientId: string }> {
  const registered = await served.app.handler(
    new Request(`${served.origin}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [served.callback], client_name: HOSTILE_NAME }),
    }),
  );
  const { client_id: clientId } = await registered.json();
  const { verifier, challenge } = await pkce();
  const url = new URL(`${served.origin}/authorize`);
  for (
    const [name, value] of Object.entries({
      response_type: "code",
      client_id: clientId,
      redirect_uri: served.callback,
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: `${served.origin}/mcp`,
      state: "tab-7",
      scope: "openid email profile",
    })
  ) url.searchParams.set(name, value);
  return { url: url.href, verifier, clientId };
}

/** What the page shows: texts by selector, read in the page. */
async function read(page: Page, expression: string): Promise<unknown> {
  return await page.evaluate(expression);
}

/** Fills the key field and clicks a decision button, waiting for the next page to load. */
async function submit(page: Page, key: string, decision: "allow" | "deny"): Promise<void> {
  const loaded = within<void>(15_000, "the answer to load", (resolve) => {
    return page.on("Page.loadEventFired", () => resolve());
  });
  await page.evaluate(`(() => {
    document.querySelector('input[name="gw2_key"]').value = ${JSON.stringify(key)};
    document.querySelector('button[name="decision"][value="${decision}"]').click();
  })()`);
  await loaded;
}

Deno.test({
  name:
    `consent page in Chromium: on a phone, in German, the hostile name as text, a rejected key explained, then signed in${BROWSER.suffix}`,
  ignore: BROWSER.skipped,
  async fn() {
    await using served = await serve();
    await using browser = await BROWSER.launch();
    const page = await browser.newPage();
    await page.send("Emulation.setDeviceMetricsOverride", {
      width: 390,
      height: 844,
      deviceScaleFactor: 1,
      mobile: true,
    });
    await page.send("Emulation.setUserAgentOverride", {
      userAgent: "Mozilla/5.0 (Linux; Android 14) priory-tests",
      acceptLanguage: "de-DE,de;q=0.9,en;q=0.5",
    });
    const { url, verifier, clientId } = await authorizationFor(served);
    await page.navigate(url);
    assert.equal(await read(page, "document.documentElement.lang"), "de");
    assert.equal(
      await read(page, "document.querySelector('h1').textContent"),
      "Bei Priory MCP anmelden",
    );
    // The client's own name is text on the page, marked unverified; nothing of it ran.
    assert.equal(await read(page, "document.querySelector('.app').textContent"), HOSTILE_NAME);
    assert.match(
      String(await read(page, "document.querySelector('.chip').textContent")),
      /nicht geprüft/,
    );
    assert.equal(await read(page, "document.querySelectorAll('img').length"), 0);
    assert.equal(await read(page, "window.pwned"), undefined);
    assert.equal(
      await read(page, "document.querySelector('.target').textContent"),
      new URL(served.origin).host,
    );
    assert.equal(
      await read(page, "document.querySelector('a').href"),
      "https://account.arena.net/applications",
    );
    assert.deepEqual(
      await read(page, "[...document.querySelectorAll('button[name=decision]')].map(b => b.value)"),
      ["allow", "deny"],
    );
    assert.match(
      String(await read(page, "document.querySelector('table').textContent")),
      /inventories/,
    );
    // What happens to the key is not the faintest text: its contrast is the body text's.
    const contrast = await read(
      page,
      `(() => {
        const rgb = (color) => color.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
        const back = lum(rgb(getComputedStyle(document.body).backgroundColor));
        const of = (el) => { const l = lum(rgb(getComputedStyle(el).color)); return (Math.max(l, back) + 0.05) / (Math.min(l, back) + 0.05); };
        const texts = [...document.querySelectorAll('p, td, th, label, span, bdi, a, h1, h2')].filter((el) => el.textContent.trim() !== '');
        return { kept: of(document.querySelector('.kept')), faintest: Math.min(...texts.map(of)), body: of(document.querySelector('h1')) };
      })()`,
    ) as { kept: number; faintest: number; body: number };
    assert.ok(contrast.kept > contrast.faintest, JSON.stringify(contrast));
    assert.equal(contrast.kept, contrast.body, JSON.stringify(contrast));
    // Readable on a phone: nothing wider than the screen.
    assert.ok(
      Number(await read(page, "document.documentElement.scrollWidth")) <= 390,
      "no horizontal scrolling at 390 px",
    );

    await submit(page, UNKNOWN_KEY, "allow");
    assert.equal(served.answers.length, 0, "a rejected key redirects nowhere");
    assert.match(String(await read(page, "location.pathname")), /^\/authorize$/);
    assert.match(
      String(await read(page, "document.querySelector('[role=alert]').textContent")),
      /GW2 hat diesen Schlüssel nicht angenommen/,
    );

    await submit(page, TEST_KEYS.full, "allow");
    assert.equal(served.answers.length, 1, "the answer reached the client's redirect");
    const [answer] = served.answers;
    assert.equal(answer?.get("state"), "tab-7");
    assert.equal(answer?.get("iss"), served.origin);
    const code = answer?.get("code") ?? "";
    const exchanged = await served.app.handler(
      new Request(`${served.origin}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          code_verifier: verifier,
          redirect_uri: served.callback,
          client_id: clientId,
          resource: `${served.origin}/mcp`,
        }).toString(),
      }),
    );
    const tokens = await exchanged.json();
    const call = modernPost("tools/call", { name: "priory_account", arguments: {} }, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    const response = await served.app.handler(new Request(`${served.origin}/mcp`, call));
    const body = await response.json();
    assert.equal(body.result.structuredContent.name, "Priory Tester.4821");
    // The one console error is the browser noting the refused key's page came with a 400.
    assert.deepEqual(page.errors.filter((error) => !/status of 400/.test(error)), []);
  },
});

Deno.test({
  name:
    `consent page in Chromium: refused inside a frame (frame-ancestors 'none')${BROWSER.suffix}`,
  ignore: BROWSER.skipped,
  async fn() {
    await using served = await serve();
    await using browser = await BROWSER.launch();
    const page = await browser.newPage();
    const { url } = await authorizationFor(served);
    await page.navigate(served.framing(url));
    // The framed document never became the consent page: the browser blocked it.
    const framed = await read(
      page,
      `(() => { try { const d = document.getElementById('f').contentDocument; return d === null ? 'blocked' : (d.querySelector('form') ? 'form' : 'blocked'); } catch { return 'blocked'; } })()`,
    );
    assert.equal(framed, "blocked");
    assert.ok(
      page.errors.some((error) => /frame-ancestors|Refused to (display|frame)/i.test(error)),
      `the browser said why: ${page.errors.join(" | ")}`,
    );
  },
});
