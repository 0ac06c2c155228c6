/**
 * The gw2.me sign-in in tests: a public app configured for gw2.me whose gw2.me is the project's
 * fake (in process, on the app's clock), and the steps a player's browser takes - choose gw2.me
 * on the consent page, click a player on gw2.me's page, come back to `/gw2me/callback` - each on
 * its own so a test can break one.
 *
 * @module
 */

import type { TestApp, TestAppOptions } from "./app.ts";
import { ManualClock } from "./clock.ts";
import {
  answerConsent,
  authorizeUrl,
  CALLBACK,
  type Handler,
  openConsent,
  pkce,
  PUBLIC_URL,
  redirectParams,
  registeredClient,
  startPublicApp,
} from "./oauth.ts";
import { FAKE_GW2ME_CLIENT, FakeGw2me, type FakeGw2meOptions } from "../fake_gw2me/mod.ts";

/** The gw2.me origin the test apps are configured with. */
export const GW2ME_URL = "https://gw2me.test";
/** Where gw2.me sends players back to the test apps. */
export const GW2ME_CALLBACK = `${PUBLIC_URL}/gw2me/callback`;

/** The environment of a public app offering gw2.me. */
export const GW2ME_ENV: Readonly<Record<string, string>> = {
  PRIORY_GW2ME_URL: GW2ME_URL,
  PRIORY_GW2ME_CLIENT_ID: FAKE_GW2ME_CLIENT.id,
  PRIORY_GW2ME_CLIENT_SECRET: FAKE_GW2ME_CLIENT.secret,
};

/** A public app with gw2.me, its fake gw2.me and their shared clock. */
export interface Gw2meApp extends AsyncDisposable {
  readonly app: TestApp;
  readonly gw2me: FakeGw2me;
  readonly clock: ManualClock;
}

/** Starts a public app whose gw2.me is a fake on the same clock. */
export async function startGw2meApp(
  options: TestAppOptions & { readonly gw2me?: FakeGw2meOptions } = {},
): Promise<Gw2meApp> {
  const clock = options.clock ?? new ManualClock({ advance: "delays" });
  const gw2me = new FakeGw2me({
    now: () => clock.now(),
    redirectUris: [GW2ME_CALLBACK],
    ...options.gw2me,
  });
  const app = await startPublicApp({
    ...options,
    clock,
    env: { ...GW2ME_ENV, ...options.env },
    gw2meFetch: gw2me.fetch,
  });
  return { app, gw2me, clock, [Symbol.asyncDispose]: () => app[Symbol.asyncDispose]() };
}

/** A consent page answered with "Sign in with gw2.me": where the browser goes, and its cookie. */
export interface ChoseGw2me {
  readonly clientId: string;
  readonly verifier: string;
  /** The `302` to gw2.me. */
  readonly answer: Response;
  /** gw2.me's authorization URL. */
  readonly location: string;
  /** The binding cookie as `name=value`. */
  readonly cookie: string;
}

/** Registers a client, opens the consent page and chooses gw2.me. */
export async function chooseGw2me(handler: Handler): Promise<ChoseGw2me> {
  const clientId = await registeredClient(handler);
  const { verifier, challenge } = await pkce();
  const page = await openConsent(
    handler,
    authorizeUrl({ client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge }),
  );
  const answer = await answerConsent(handler, page, { decision: "gw2me" });
  const location = answer.headers.get("location") ?? "";
  const cookie = answer.headers.getSetCookie().map((line) => line.split(";")[0] ?? "")
    .find((pair) => pair.startsWith("priory_gw2me_")) ?? "";
  return { clientId, verifier, answer, location, cookie };
}

/** The player picks `user` (or Deny) on the fake gw2.me's page: the callback URL it sends back. */
export async function atGw2me(gw2me: FakeGw2me, location: string, user: string): Promise<string> {
  const response = await gw2me.fetch(FakeGw2me.decideUrl(location, user));
  const back = response.headers.get("location");
  if (response.status !== 302 || back === null) {
    throw new Error(`gw2.me did not send the player back: ${response.status}`);
  }
  return back;
}

/** The browser follows gw2.me's redirect back to Priory, with `cookie` (or none). */
export function backFromGw2me(
  handler: Handler,
  url: string,
  cookie: string | undefined,
): Promise<Response> {
  return handler(new Request(url, { headers: cookie === undefined ? {} : { cookie } }));
}

/** A whole gw2.me sign-in of `user`, up to the code the app receives. */
export async function gw2meCode(
  handler: Handler,
  gw2me: FakeGw2me,
  user = "tester",
): Promise<{ clientId: string; verifier: string; code: string }> {
  const chose = await chooseGw2me(handler);
  const back = await atGw2me(gw2me, chose.location, user);
  const answer = await backFromGw2me(handler, back, chose.cookie);
  const code = redirectParams(answer).get("code");
  if (code === null) throw new Error(`no code: ${answer.status}`);
  return { clientId: chose.clientId, verifier: chose.verifier, code };
}
