/**
 * The sign-out page (`/signout`) with Request objects: a key of the account ends every grant of
 * that account - whatever key or app each was made with - and no other account's, deletes their
 * sealed keys, and says how many; its form is guarded as the consent page's (a missing, forged,
 * foreign or replayed answer ends nothing) and its key checks go through the consent page's gate
 * (a flood from one address is refused with Retry-After).
 */

import assert from "node:assert/strict";
import { mintSubtoken, TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import { modernPost, type TestApp } from "../support/app.ts";
import { ManualClock } from "../support/clock.ts";
import {
  fromAddress,
  type Handler,
  madeUpKey,
  postForm,
  PUBLIC_ENV,
  PUBLIC_URL,
  signIn,
  startPublicApp,
} from "../support/oauth.ts";

/** The sign-out page as a browser got it: its hidden field and its cookie. */
interface SignOutForm {
  readonly response: Response;
  readonly html: string;
  readonly field: string | undefined;
  readonly cookie: string | undefined;
}

async function readForm(response: Response): Promise<SignOutForm> {
  const html = await response.text();
  const raw = /name="request" value="([^"]*)"/.exec(html)?.[1];
  const cookie = response.headers.getSetCookie().map((line) => line.split(";")[0] ?? "")
    .find((pair) => pair.startsWith("priory_signout_") && !pair.endsWith("="));
  return { response, html, field: raw?.replaceAll("&amp;", "&"), cookie };
}

function openSignOut(handler: Handler, headers: Record<string, string> = {}) {
  return handler(new Request(`${PUBLIC_URL}/signout`, { headers })).then(readForm);
}

/** POSTs the sign-out form; `undefined` leaves a part out. */
function answer(
  handler: Handler,
  form: SignOutForm,
  options: {
    key?: string;
    field?: string | undefined;
    cookie?: string | undefined;
    origin?: string;
    address?: string;
    type?: string;
  } = {},
): Promise<Response> {
  const body = new URLSearchParams();
  const field = "field" in options ? options.field : form.field;
  if (field !== undefined) body.set("request", field);
  if (options.key !== undefined) body.set("gw2_key", options.key);
  const cookie = "cookie" in options ? options.cookie : form.cookie;
  return handler(
    new Request(`${PUBLIC_URL}/signout`, {
      method: "POST",
      headers: {
        "content-type": options.type ?? "application/x-www-form-urlencoded",
        origin: options.origin ?? PUBLIC_URL,
        ...(cookie === undefined ? {} : { cookie }),
      },
      body: body.toString(),
    }),
    options.address === undefined ? undefined : fromAddress(options.address),
  );
}

/** Whether an access token still reaches the account tools. */
async function works(handler: Handler, access: string): Promise<boolean> {
  const response = await handler(
    modernPost("tools/call", { name: "priory_account", arguments: {} }, {
      authorization: `Bearer ${access}`,
    }),
  );
  await response.body?.cancel();
  return response.status === 200;
}

async function grantRecords(kv: Deno.Kv): Promise<number> {
  return (await Array.fromAsync(kv.list({ prefix: ["auth", "grant"] }))).length;
}

Deno.test("sign-out page: one guarded form, unframeable, in the browser's language", async () => {
  await using app = await startPublicApp();
  const form = await openSignOut(app.handler, { "accept-language": "fr-FR,fr;q=0.9" });
  assert.equal(form.response.status, 200);
  const csp = form.response.headers.get("content-security-policy") ?? "";
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /form-action 'self';/);
  assert.ok(form.html.includes('<html lang="fr">'));
  assert.match(form.html, /Se déconnecter de Priory MCP/);
  assert.equal(form.html.match(/<form /g)?.length, 1);
  assert.match(form.html, /<form method="post" action="\/signout">/);
  assert.match(form.html, /name="gw2_key" type="password"/);
  assert.doesNotMatch(form.html, /<script/i);
  assert.ok(form.field, "a signed hidden field");
  assert.match(
    form.response.headers.getSetCookie().join("\n"),
    /^priory_signout_[\w-]{12}=[\w-]+; Path=\/signout; Max-Age=600; HttpOnly; SameSite=Strict$/m,
  );
});

Deno.test("sign-out: a key of the account ends every grant of that account (any key, any app) and no other account's, and deletes their sealed keys", async () => {
  await using app = await startPublicApp();
  const first = await signIn(app.handler, TEST_KEYS.full);
  const second = await signIn(app.handler, TEST_KEYS.full); // a second app
  const other = await signIn(app.handler, TEST_KEYS.veteran);
  assert.equal(await grantRecords(app.kv), 3);
  const form = await openSignOut(app.handler);
  // Another key of the same account, with only the account permission.
  const done = await readForm(await answer(app.handler, form, { key: TEST_KEYS.accountOnly }));
  assert.equal(done.response.status, 200);
  assert.match(
    done.html,
    /<span class="ended">2<\/span> sign-ins of <bdi class="account">Priory Tester\.4821<\/bdi> ended/,
  );
  assert.equal(done.field, undefined, "no form once signed out");
  assert.ok(!done.html.includes(TEST_KEYS.accountOnly), "the key is not written back");
  assert.match(
    done.response.headers.getSetCookie().join("\n"),
    /priory_signout_[\w-]{12}=; Path=\/signout; Max-Age=0/,
    "the form's cookie is cleared",
  );
  assert.equal(await works(app.handler, first.accessToken), false);
  assert.equal(await works(app.handler, second.accessToken), false);
  assert.equal(await works(app.handler, other.accessToken), true, "the other account keeps its");
  const refresh = await postForm(app.handler, "/token", {
    grant_type: "refresh_token",
    refresh_token: first.refreshToken,
    client_id: first.clientId,
  });
  assert.equal(refresh.status, 400);
  assert.equal(await grantRecords(app.kv), 1, "the two grants and their sealed keys are gone");
  // Again: nothing left to end, and it says so.
  const again = await readForm(
    await answer(app.handler, await openSignOut(app.handler), { key: TEST_KEYS.full }),
  );
  assert.match(
    again.html,
    /Nothing to end: no sign-in of <bdi class="account">Priory Tester\.4821/,
  );
});

Deno.test("sign-out: a missing, forged, foreign or replayed form ends nothing", async () => {
  await using app = await startPublicApp();
  const signedIn = await signIn(app.handler, TEST_KEYS.full);
  const form = await openSignOut(app.handler);
  const cases: [string, Parameters<typeof answer>[2], number, RegExp][] = [
    ["no hidden field", { field: undefined }, 403, /could not be verified/],
    ["an altered field", { field: `${form.field}x` }, 403, /could not be verified/],
    ["no cookie (a cross-site POST)", { cookie: undefined }, 403, /could not be verified/],
    ["another origin", { origin: "https://evil.example" }, 403, /could not be verified/],
    ["not a form", { type: "application/json" }, 400, /could not be verified/],
  ];
  for (const [name, options, status, text] of cases) {
    const refused = await readForm(
      await answer(app.handler, form, { key: TEST_KEYS.full, ...options }),
    );
    assert.equal(refused.response.status, status, name);
    assert.match(refused.html, text, name);
    assert.ok(refused.field, `${name}: a fresh form to try again`);
    assert.equal(await works(app.handler, signedIn.accessToken), true, name);
  }
  // A consent form's state is no sign-out form's: each kind is signed with its own key.
  const consentLike = await answer(app.handler, form, {
    key: TEST_KEYS.full,
    field: form.field?.replace(/\.[^.]*$/, ".AAAA"),
  });
  assert.equal(consentLike.status, 403);
  await consentLike.body?.cancel();
  // The real answer works once; sent again it is "already sent", and ends nothing more.
  const done = await answer(app.handler, form, { key: TEST_KEYS.full });
  assert.equal(done.status, 200);
  await done.body?.cancel();
  const later = await signIn(app.handler, TEST_KEYS.full);
  const replayed = await readForm(await answer(app.handler, form, { key: TEST_KEYS.full }));
  assert.equal(replayed.response.status, 400);
  assert.match(replayed.html, /already sent/);
  assert.equal(await works(app.handler, later.accessToken), true, "the replay ended nothing");
});

Deno.test("sign-out: a key GW2 rejects, or none, is explained and ends nothing", async () => {
  await using app = await startPublicApp();
  const signedIn = await signIn(app.handler, TEST_KEYS.full);
  for (
    const [key, text] of [
      ["", /Enter a GW2 API key of the account/],
      ["not a key!", /does not look like a GW2 API key/],
      [UNKNOWN_KEY, /GW2 did not accept this key/],
    ] as const
  ) {
    const refused = await readForm(
      await answer(app.handler, await openSignOut(app.handler), { key }),
    );
    assert.equal(refused.response.status, 400, key);
    assert.match(refused.html, text, key);
  }
  assert.equal(await works(app.handler, signedIn.accessToken), true);
});

Deno.test("sign-out: key checks go through the consent page's gate: a flood from one address is refused with Retry-After", async () => {
  await using app = await startPublicApp();
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let n = 0; n < 12; n++) {
    // A different made-up key each time (a rejected key is remembered and costs nothing again).
    const key = UNKNOWN_KEY.replace(/0000$/, String(n).padStart(4, "0"));
    const response = await answer(app.handler, await openSignOut(app.handler), {
      key,
      address: "203.0.113.9",
    });
    statuses.push(response.status);
    retryAfter ??= response.headers.get("retry-after");
    await response.body?.cancel();
  }
  assert.ok(statuses.slice(0, 10).every((status) => status === 400), `${statuses}`);
  assert.deepEqual(statuses.slice(10), [429, 429]);
  assert.match(retryAfter ?? "", /^\d+$/);
  // Another address is not held back by it.
  const other = await answer(app.handler, await openSignOut(app.handler), {
    key: TEST_KEYS.full,
    address: "198.51.100.7",
  });
  assert.equal(other.status, 200);
  await other.body?.cancel();
});

/** Upstream requests the fake served on `path`. */
function asked(app: TestApp, path: string): number {
  return app.fake.control.requests.filter((request) => request.path === path).length;
}

Deno.test("sign-out attacks: a foreign cookie does not pass - another sign-out form's, a consent form's, or this form's name with another value", async () => {
  await using app = await startPublicApp();
  const signedIn = await signIn(app.handler, TEST_KEYS.full);
  const form = await openSignOut(app.handler);
  const other = await openSignOut(app.handler);
  const [name = ""] = form.cookie?.split("=") ?? [];
  const otherValue = other.cookie?.split("=")[1] ?? "";
  for (
    const [label, cookie] of [
      ["another form's cookie", other.cookie],
      ["this form's name, another form's value", `${name}=${otherValue}`],
      ["a consent form's cookie", `priory_consent_${name.slice(-12)}=${otherValue}`],
      ["both forms' cookies, the wrong one last", `${form.cookie}; ${name}=${otherValue}`],
    ] as const
  ) {
    const refused = await readForm(
      await answer(app.handler, form, { key: TEST_KEYS.full, cookie }),
    );
    assert.equal(refused.response.status, 403, label);
    assert.match(refused.html, /could not be verified/, label);
  }
  // An Origin of "null" (a sandboxed frame, a data: page) says nothing: the cookie still decides.
  const sandboxed = await answer(app.handler, form, {
    key: TEST_KEYS.full,
    origin: "null",
    cookie: undefined,
  });
  assert.equal(sandboxed.status, 403);
  await sandboxed.body?.cancel();
  assert.equal(await works(app.handler, signedIn.accessToken), true, "nothing ended");
  // The form itself still works once: none of that used it up.
  const done = await answer(app.handler, form, { key: TEST_KEYS.full });
  assert.equal(done.status, 200);
  await done.body?.cancel();
  assert.equal(await works(app.handler, signedIn.accessToken), false);
});

Deno.test("sign-out attacks: a subtoken ends its own account's sign-ins only; an expired, tampered or account-less one ends nothing", async () => {
  await using app = await startPublicApp();
  const mine = await signIn(app.handler, TEST_KEYS.full);
  const theirs = await signIn(app.handler, TEST_KEYS.veteran);
  const now = app.clock.now();
  const veteranSub = mintSubtoken("veteran", ["account"], now, now + 3_600_000);
  const refusals: [string, string][] = [
    ["expired", mintSubtoken("full", ["account"], now - 7_200_000, now - 3_600_000)],
    ["tampered", `${veteranSub.slice(0, -4)}AAAA`],
    ["no account permission", mintSubtoken("full", ["wallet"], now, now + 3_600_000)],
  ];
  for (const [label, key] of refusals) {
    const refused = await readForm(
      await answer(app.handler, await openSignOut(app.handler), { key }),
    );
    assert.equal(refused.response.status, 400, label);
    assert.match(refused.html, /GW2 did not accept this key/, label);
  }
  assert.equal(await works(app.handler, mine.accessToken), true);
  assert.equal(await works(app.handler, theirs.accessToken), true);
  const done = await readForm(
    await answer(app.handler, await openSignOut(app.handler), { key: veteranSub }),
  );
  assert.match(
    done.html,
    /Signed out: 1 sign-in of <bdi class="account">Priory Veteran\.1907<\/bdi> ended/,
  );
  assert.equal(await works(app.handler, theirs.accessToken), false, "the subtoken's account");
  assert.equal(await works(app.handler, mine.accessToken), true, "no other account's");
});

Deno.test("sign-out attacks: without a key of the account nothing tells whether it has sign-ins - a rejected key's answer is the same page either way, and no account is read", async () => {
  const pageFor = async (withSignIns: boolean) => {
    await using app = await startPublicApp();
    if (withSignIns) {
      await signIn(app.handler, TEST_KEYS.full);
      await signIn(app.handler, TEST_KEYS.veteran);
    }
    const accountReads = asked(app, "/v2/account");
    const refused = await readForm(
      await answer(app.handler, await openSignOut(app.handler), { key: UNKNOWN_KEY }),
    );
    assert.equal(asked(app, "/v2/account"), accountReads, "no account was read");
    // The fresh form's signed field and cookie are random: the rest must not differ.
    return {
      status: refused.response.status,
      html: refused.html.replace(/name="request" value="[^"]*"/, ""),
    };
  };
  assert.deepEqual(await pageFor(true), await pageFor(false));
});

Deno.test("sign-out attacks: a flood of made-up keys from many addresses spends only the key checks' share, and a player who comes next signs out at the next token", async () => {
  // Time moves only when the test says; a budget of 20 at once and 5 a second gives the checks
  // a share of 2 at once, then one a second.
  const clock = new ManualClock();
  await using app = await startPublicApp({
    clock,
    env: { ...PUBLIC_ENV, GW2_RATE_BURST: "20", GW2_RATE_PER_SEC: "5" },
  });
  const signedIn = await signIn(app.handler, TEST_KEYS.full);
  const forms = await Promise.all(Array.from({ length: 40 }, () => openSignOut(app.handler)));
  const started = clock.now();
  const checked = asked(app, "/v2/tokeninfo");
  const flood = forms.map((form, n) =>
    answer(app.handler, form, { key: madeUpKey(n), address: `198.18.1.${n}` })
  ).map(async (response) => {
    const answered = await response;
    await answered.body?.cancel();
    return answered.status;
  });
  await settle();
  // The player's own sign-in took one of the share's two; the flood gets what is left, no more.
  assert.equal(asked(app, "/v2/tokeninfo") - checked, 1, "the share's burst, then nothing");
  const form = await openSignOut(app.handler);
  let done: Response | undefined;
  void answer(app.handler, form, { key: TEST_KEYS.accountOnly, address: "203.0.113.70" })
    .then((response) => done = response);
  await settle();
  for (let step = 0; step < 20 && done === undefined; step++) {
    clock.advance(100);
    await settle();
  }
  assert.equal(done?.status, 200, "served at the share's next token, ahead of the flood");
  await done?.body?.cancel();
  assert.ok(clock.now() - started <= 1_100, `the player waited ${clock.now() - started} ms`);
  assert.equal(await works(app.handler, signedIn.accessToken), false, "the player signed out");
  clock.advance(60_000);
  await settle();
  const statuses = await Promise.all(flood);
  assert.ok(statuses.every((status) => status === 400 || status === 429), `${statuses}`);
  assert.ok(statuses.includes(429), "past its share the flood is told to come back");
  const elapsedS = (clock.now() - started) / 1_000;
  const spent = asked(app, "/v2/tokeninfo") - checked;
  assert.ok(spent <= 2 + Math.ceil(elapsedS), `${spent} checks in ${elapsedS} s`);
});

/** Lets every reaction of the last clock move run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 200; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}
