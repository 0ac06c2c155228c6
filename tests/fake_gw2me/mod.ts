/**
 * A fake gw2.me for tests and a manual try (`deno task fake-gw2` serves it beside the fake GW2
 * API, on the same port). See `fake.ts` and docs/fake-gw2.md.
 *
 * ```ts
 * import { FAKE_GW2ME_CLIENT, FakeGw2me } from "../fake_gw2me/mod.ts";
 * const gw2me = new FakeGw2me({ redirectUris: ["http://localhost/gw2me/callback"] });
 * const answer = await gw2me.fetch("http://gw2me.test/api/accounts", { headers: { authorization } });
 * ```
 *
 * @module
 */

export {
  ACCESS_TTL_S,
  DEFAULT_SUBTOKEN_TTL_MS,
  FAKE_GW2ME_CLIENT,
  FAKE_GW2ME_USERS,
  FakeGw2me,
  type FakeGw2meOptions,
  type Gw2meEndpoint,
  type Gw2meRequestLog,
} from "./fake.ts";
