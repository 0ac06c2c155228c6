/**
 * A public app behind a real loopback server, for tests (and the screenshot script) that drive
 * its pages in a browser: its public URL is that server's origin, an app's redirect URI on it
 * (`/callback`) records the answers it gets, and with `gw2me` a fake gw2.me answers on the same
 * origin (its paths, `/oauth2/...` and `/api/...`, are none of Priory's) - the origin the app is
 * configured with as `PRIORY_GW2ME_URL`. `/__frame` frames a page, to see it refused there.
 *
 * @module
 */

import { FakeGw2me } from "../fake_gw2me/mod.ts";
import type { TestApp } from "./app.ts";
import { GW2ME_ENV } from "./gw2me.ts";
import { PUBLIC_ENV, startPublicApp } from "./oauth.ts";

/** A served public app. */
export interface ServedPublicApp extends AsyncDisposable {
  readonly app: TestApp;
  /** `http://127.0.0.1:<port>`: the public URL. */
  readonly origin: string;
  /** A redirect URI an app may register: `<origin>/callback`. */
  readonly callback: string;
  /** The queries `/callback` received. */
  readonly answers: URLSearchParams[];
  /** The fake gw2.me, when asked for. */
  readonly gw2me: FakeGw2me | undefined;
  /** A page on the same origin that frames `path`. */
  framing(path: string): string;
}

/** Serves a public app on a free loopback port; `env` is added to the public mode's. */
export async function servePublicApp(
  options: { readonly env?: Record<string, string>; readonly gw2me?: boolean } = {},
): Promise<ServedPublicApp> {
  const state: { app?: TestApp } = {};
  const answers: URLSearchParams[] = [];
  // On the app's clock, once there is an app (codes and subtokens expire by it).
  const gw2me = options.gw2me === true
    ? new FakeGw2me({ now: () => state.app?.clock.now() ?? Date.now() })
    : undefined;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request, info) => {
      const url = new URL(request.url);
      if (url.pathname === "/callback") {
        answers.push(url.searchParams);
        return new Response("<!doctype html><title>back in the app</title><p>Signed in.</p>", {
          headers: { "content-type": "text/html" },
        });
      }
      if (url.pathname === "/__frame") {
        // A page of the same origin that frames the page named by `src`.
        const src = (url.searchParams.get("src") ?? "").replace(/[^\w:/.?=&%-]/g, "");
        return new Response(`<!doctype html><iframe id="f" src="${src}"></iframe>`, {
          headers: { "content-type": "text/html" },
        });
      }
      if (gw2me !== undefined && FakeGw2me.handles(url.pathname)) return gw2me.fetch(request);
      if (state.app === undefined) return new Response("starting", { status: 503 });
      return state.app.handler(request, info);
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const app = await startPublicApp({
    env: {
      ...PUBLIC_ENV,
      PRIORY_PUBLIC_URL: origin,
      ...(gw2me === undefined ? {} : { ...GW2ME_ENV, PRIORY_GW2ME_URL: origin }),
      ...options.env,
    },
    ...(gw2me === undefined ? {} : { gw2meFetch: gw2me.fetch }),
  });
  state.app = app;
  return {
    app,
    origin,
    callback: `${origin}/callback`,
    answers,
    gw2me,
    framing: (path) => `${origin}/__frame?src=${encodeURIComponent(`${origin}${path}`)}`,
    [Symbol.asyncDispose]: async () => {
      await app[Symbol.asyncDispose]();
      await server.shutdown();
    },
  };
}
