/**
 * The sign-out page (`/signout`) with Request objects: a key of the account ends every grant of
 * that account - whatever key or app each was made with - and no other account's, deletes their
 * sealed keys, and says how many; its form is guarded as the consent page's (a missing, forged,
 * foreign or replayed answer ends nothing) and its key checks go through the consent page's gate
 * (a flood from one address is refused with Retry-After).
 */

import assert from "node:assert/strict";
import { TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import { modernPost } from "../support/app.ts";
import {
  fromAddress,
  type Handler,
  postForm,
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
