/**
 * The consent page's check of a GW2 API key before anything is issued: `/v2/tokeninfo` (the
 * key's permissions) and `/v2/account` (whose account it is: the grant's identity), both through
 * the GW2 client - its budget, its cache under the key's HMAC, its errors - within one deadline.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { startDeadline, withinDeadline } from "../async/deadline.ts";
import { isGw2Failure } from "../gw2/errors.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { USEFUL_PERMISSIONS } from "./consent_text.ts";

/** How long the check may take before the page says to try again. */
export const KEY_CHECK_MS = 10_000;

/** The outcome of {@linkcode checkKey}. */
export type KeyCheck =
  | {
    readonly ok: true;
    /** The account name (kept only as a pseudonym). */
    readonly account: string;
    readonly permissions: readonly string[];
    /** Permissions the tools use that the key lacks. */
    readonly missing: readonly string[];
  }
  | {
    readonly ok: false;
    readonly reason: "keyMissing" | "keyMalformed" | "keyRejected" | "keyUnchecked";
  };

/** What a GW2 key or subtoken can look like (two GUIDs back to back, or a JWT). */
const KEY_SHAPE = /^[A-Za-z0-9._-]{20,400}$/;

/**
 * Checks `key` with the GW2 API.
 *
 * @example
 * ```ts
 * const check = await checkKey(gw2, form.get("gw2_key") ?? "", clock);
 * if (!check.ok) return page({ notice: { kind: check.reason } });
 * ```
 */
export async function checkKey(
  gw2: Gw2Client,
  key: string,
  clock: Clock,
): Promise<KeyCheck> {
  if (key === "") return { ok: false, reason: "keyMissing" };
  if (!KEY_SHAPE.test(key)) return { ok: false, reason: "keyMalformed" };
  using deadline = startDeadline(clock, KEY_CHECK_MS);
  const [token, account] = await withinDeadline(
    deadline,
    () => Promise.allSettled([gw2.doc("tokenInfo", { key }), gw2.doc("account", { key })]),
  );
  if (token.status === "fulfilled" && account.status === "fulfilled") {
    const permissions = token.value.value.permissions;
    return {
      ok: true,
      account: account.value.value.name,
      permissions,
      missing: USEFUL_PERMISSIONS.filter((permission) => !permissions.includes(permission)),
    };
  }
  const failures = [token, account].flatMap((outcome) =>
    outcome.status === "rejected" ? [outcome.reason] : []
  );
  // A key GW2 rejects, or one without even the account permission, cannot sign anyone in.
  const rejected = failures.some((error) =>
    isGw2Failure(error) && (error.kind === "key_rejected" || error.kind === "scope_missing")
  );
  return { ok: false, reason: rejected ? "keyRejected" : "keyUnchecked" };
}
