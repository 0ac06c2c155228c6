/**
 * The one gate every check of a GW2 API key a page makes goes through (the consent page's, the
 * sign-out page's): before anything is issued or ended, the key is asked of the GW2 API -
 * `/v2/tokeninfo` first (its permissions), then, only when that passed, `/v2/account` (whose
 * account it is: the grant's identity) - through the GW2 client (its budget, its cache under the
 * key's HMAC, its errors), within one deadline.
 *
 * Anyone can post keys to a page, and each unknown key costs the shared upstream budget every
 * player waits on. So the gate bounds what a flood of made-up keys can spend:
 * - **per client address** (an IPv4 address, an IPv6 /64: `addressGroup`), at most
 *   {@linkcode ADDRESS_CHECKS_AT_ONCE} checks at once and {@linkcode ADDRESS_CHECKS_BURST} in a
 *   row, then {@linkcode ADDRESS_CHECKS_PER_HOUR} an hour;
 * - **in total**, at most {@linkcode CHECKS_AT_ONCE} checks at once in this process, and each
 *   `/v2/tokeninfo` of a check takes first from a bucket of its own (in KV, shared by every
 *   instance) sized {@linkcode SHARE_OF_BURST} of the upstream budget's burst and
 *   {@linkcode SHARE_OF_RATE} of its rate, then from the budget itself - so made-up keys never
 *   cost more than that share of it, and players' tool calls and the background work keep the
 *   rest. The `/v2/account` step takes no token of the share: only a key GW2 accepted gets there,
 *   and a made-up one costs the attacker nothing to make where a real one does;
 * - **a player first**: when the share is spent, a check waits for its next token only if it is
 *   its address's first in {@linkcode REMEMBER_MS} (or the first since a key from it was
 *   accepted), and the newest such check is served first. A sender's later checks - made-up
 *   keys, one after another - only take a token that is free at once, and none while a first
 *   check waits. So a flood from many senders costs the share, and a player signing in from
 *   another address waits for one of its tokens, not behind the flood;
 * - **a rejected key is remembered** for {@linkcode REMEMBER_MS} by an HMAC of it (never the key),
 *   and refused again without asking; an accepted one too, and checked again without counting
 *   against the limits (the GW2 client's cache answers it).
 *
 * The counters live in the process's memory (as the call rate does); the share is in KV.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { startDeadline, withinDeadline } from "../async/deadline.ts";
import { isGw2Failure } from "../gw2/errors.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { describeError, type Logger } from "../log.ts";
import { addressGroup } from "./address.ts";
import { CallRate } from "./call_rate.ts";

/** How long one check may take, waits included, before the page says to try again. */
export const KEY_CHECK_MS = 10_000;
/** Checks one client address may have running at once. */
export const ADDRESS_CHECKS_AT_ONCE = 2;
/** Checks one client address may make in a row after a pause. */
export const ADDRESS_CHECKS_BURST = 10;
/** Checks one client address may make per hour, sustained. */
export const ADDRESS_CHECKS_PER_HOUR = 30;
/** Checks running at once in one process, every address together. */
export const CHECKS_AT_ONCE = 100;
/** The part of the upstream budget's burst key checks may spend at once. */
export const SHARE_OF_BURST = 0.1;
/**
 * The part of the upstream budget's rate key checks may spend: one `/v2/tokeninfo` a second at
 * the default 5, which lets a player sign in every second however long a flood lasts.
 */
export const SHARE_OF_RATE = 0.2;
/** How long a key's outcome is remembered. */
export const REMEMBER_MS = 10 * 60_000;
/** Keys remembered at most; the oldest are forgotten first. */
const REMEMBERED_KEYS = 10_000;

/** Why a key was not accepted. */
export type KeyRefusal =
  /** No key was given. */
  | "keyMissing"
  /** It cannot be a GW2 key or subtoken (shape). */
  | "keyMalformed"
  /** GW2 rejects it, or it lacks even the `account` permission. */
  | "keyRejected"
  /** GW2 could not be asked in time (down, slow, budget spent); nothing is known of the key. */
  | "keyUnchecked"
  /** This client address made too many checks just now ({@linkcode KeyCheck}'s `retryAfterMs`). */
  | "tooManyChecks"
  /** Too many checks at once from everyone: the server is flooded; try again shortly. */
  | "checksBusy";

/** The outcome of {@linkcode KeyCheckGate.check}. */
export type KeyCheck =
  | {
    readonly ok: true;
    /** The GW2 account name (a grant keeps only its pseudonym). */
    readonly account: string;
    /** The key's permissions, as `/v2/tokeninfo` lists them. */
    readonly permissions: readonly string[];
  }
  | {
    readonly ok: false;
    readonly reason: KeyRefusal;
    /** For `tooManyChecks` and `checksBusy`: milliseconds until a check may succeed. */
    readonly retryAfterMs?: number;
  };

/**
 * What a GW2 key or subtoken can look like: two GUIDs back to back (72 characters), or a JWT
 * (a subtoken, a few hundred characters and more with many permissions or URLs).
 */
export const KEY_SHAPE = /^[A-Za-z0-9._-]{20,2000}$/;

/**
 * The bucket the checks' share of the upstream budget is counted in: a token bucket in KV
 * (`src/gw2/token_bucket.ts`, which only the process wiring may build), shared by every
 * instance, sized by {@linkcode keyCheckShare}.
 */
export interface ShareBucket {
  /** Takes one token if one is free now. */
  tryTake(): Promise<{ readonly admitted: boolean }>;
  /** Takes one token, waiting up to `maxWaitMs` for a refill. */
  take(maxWaitMs: number): Promise<{ readonly admitted: boolean }>;
}

/** Where the share's bucket is kept in KV. */
export const KEY_CHECK_SHARE_KEY: Deno.KvKey = ["auth", "key check share"];

/**
 * The size of the checks' share of an upstream budget of `burst` at once and `perSec` a second:
 * {@linkcode SHARE_OF_BURST} of the burst (at least 2) and {@linkcode SHARE_OF_RATE} of the rate.
 *
 * @example
 * ```ts
 * keyCheckShare({ burst: 300, perSec: 5 }); // { burst: 30, perSec: 1 }
 * ```
 */
export function keyCheckShare(
  budget: { readonly burst: number; readonly perSec: number },
): { readonly burst: number; readonly perSec: number } {
  return {
    burst: Math.max(2, Math.floor(budget.burst * SHARE_OF_BURST)),
    perSec: budget.perSec * SHARE_OF_RATE,
  };
}

/** Options of {@linkcode KeyCheckGate}. */
export interface KeyCheckGateOptions {
  /** The process's interactive GW2 client: the checks' requests take from its budget. */
  readonly gw2: Gw2Client;
  /** The checks' share of the upstream budget (every instance's checks together). */
  readonly share: ShareBucket;
  readonly clock: Clock;
  readonly log: Logger;
  /** An HMAC of a key (never the key), to remember outcomes by. */
  readonly tag: (key: string) => Promise<string>;
}

interface Remembered {
  readonly accepted: boolean;
  readonly until: number;
}

/** How a check waits for a token of the share, first served first. */
type Turn =
  /** An address's first check in a while: waits, the newest served first. */
  | "first"
  /** Any other: only a token free at once, and none a waiting check is owed. */
  | "again";

interface Waiter {
  readonly admit: (admitted: boolean) => void;
}

/** The key-check gate of one process. */
export class KeyCheckGate {
  readonly #gw2: Gw2Client;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #tag: (key: string) => Promise<string>;
  readonly #share: ShareBucket;
  readonly #perAddress: CallRate;
  readonly #running = new Map<string, number>();
  #runningTotal = 0;
  readonly #remembered = new Map<string, Remembered>();
  /** When each address's last check began (until then + {@linkcode REMEMBER_MS} its next is "again"). */
  readonly #lastCheck = new Map<string, number>();
  /** Checks waiting for a token of the share, by turn. */
  readonly #waiting: Waiter[] = [];
  #pumping = false;

  /** @param options the GW2 client, the share's bucket, clock, logger and key tag */
  constructor(options: KeyCheckGateOptions) {
    this.#gw2 = options.gw2;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#tag = options.tag;
    this.#share = options.share;
    this.#perAddress = new CallRate({
      burst: ADDRESS_CHECKS_BURST,
      perMinute: ADDRESS_CHECKS_PER_HOUR / 60,
      clock: options.clock,
    });
  }

  /**
   * Checks `key` (as typed, trimmed) for a request from `clientAddress` (the TCP peer, or what
   * the operator's proxy says it is; any text when unknown). `signal` ends the check early (the
   * request went away). Never throws: a failure to reach GW2 or KV is `keyUnchecked` or
   * `checksBusy`.
   *
   * @example
   * ```ts
   * const check = await gate.check(form.get("gw2_key") ?? "", clientAddress);
   * if (!check.ok) return page({ notice: { kind: check.reason } });
   * const ended = await grants.endAccountGrants(check.account);
   * ```
   */
  async check(key: string, clientAddress: string, signal?: AbortSignal): Promise<KeyCheck> {
    if (key === "") return { ok: false, reason: "keyMissing" };
    if (!KEY_SHAPE.test(key)) return { ok: false, reason: "keyMalformed" };
    const tag = await this.#tag(key);
    const known = this.#recall(tag);
    if (known === false) return { ok: false, reason: "keyRejected" };
    const group = addressGroup(clientAddress);
    if ((this.#running.get(group) ?? 0) >= ADDRESS_CHECKS_AT_ONCE) {
      return { ok: false, reason: "tooManyChecks", retryAfterMs: KEY_CHECK_MS };
    }
    if (this.#runningTotal >= CHECKS_AT_ONCE) {
      return { ok: false, reason: "checksBusy", retryAfterMs: KEY_CHECK_MS };
    }
    // A key accepted a moment ago (the player insisting after the missing-permissions notice)
    // is answered from the GW2 client's cache: it costs no check.
    if (known !== true) {
      const waitMs = this.#perAddress.take(group, 1);
      if (waitMs > 0) {
        this.#log.info("auth key check refused", { reason: "address over its rate" });
        return { ok: false, reason: "tooManyChecks", retryAfterMs: waitMs };
      }
    }
    const first = this.#firstSince(group);
    this.#enter(group, 1);
    try {
      return await this.#ask(key, tag, group, known === true ? undefined : first, signal);
    } finally {
      this.#enter(group, -1);
    }
  }

  /**
   * Asks GW2: `tokeninfo` after a token of the share, then `account` when it passed
   * (`turn`: how the first waits; `undefined`: a key accepted lately, which takes none).
   */
  async #ask(
    key: string,
    tag: string,
    group: string,
    turn: Turn | undefined,
    signal: AbortSignal | undefined,
  ): Promise<KeyCheck> {
    using deadline = startDeadline(this.#clock, KEY_CHECK_MS, group);
    const stop = signal === undefined
      ? deadline.signal
      : AbortSignal.any([signal, deadline.signal]);
    const gw2 = this.#gw2;
    // Both reads end by the check's deadline.
    const read = <T>(work: () => Promise<T>) => withinDeadline(deadline, work);
    const busy: KeyCheck = { ok: false, reason: "checksBusy", retryAfterMs: 60_000 };
    if (turn !== undefined && !(await this.#token(turn, stop))) return busy;
    let permissions: readonly string[];
    try {
      permissions = (await read(() => gw2.doc("tokenInfo", { key }))).value.permissions;
    } catch (error) {
      return this.#failed(tag, error);
    }
    if (!permissions.includes("account")) {
      // A key without even the account permission cannot sign anyone in.
      this.#remember(tag, false);
      return { ok: false, reason: "keyRejected" };
    }
    try {
      const account = (await read(() => gw2.doc("account", { key }))).value.name;
      this.#remember(tag, true);
      // A player: their next check is a first one again.
      this.#lastCheck.delete(group);
      return { ok: true, account, permissions };
    } catch (error) {
      return this.#failed(tag, error);
    }
  }

  /** Whether `group`'s check beginning now is its first in a while; records that it began. */
  #firstSince(group: string): Turn {
    const now = this.#clock.now();
    const last = this.#lastCheck.get(group);
    this.#lastCheck.delete(group);
    this.#lastCheck.set(group, now);
    for (const [oldest, at] of this.#lastCheck) {
      if (this.#lastCheck.size <= REMEMBERED_KEYS && now - at <= REMEMBER_MS) break;
      this.#lastCheck.delete(oldest);
    }
    return last !== undefined && now - last <= REMEMBER_MS ? "again" : "first";
  }

  /**
   * A token of the share for a check of `turn`: true once it has one, false when none came in
   * time (`stop` aborted) or, for "again", none was free at once.
   */
  async #token(turn: Turn, stop: AbortSignal): Promise<boolean> {
    const owed = this.#waiting.length;
    if (turn === "again" && owed > 0) return false;
    if (owed === 0 && (await this.#tryShare())) return true;
    if (turn === "again" || stop.aborted) return false;
    const queue = this.#waiting;
    return await new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        admit: (admitted) => {
          stop.removeEventListener("abort", leave);
          resolve(admitted);
        },
      };
      const leave = () => {
        const index = queue.indexOf(waiter);
        if (index !== -1) queue.splice(index, 1);
        resolve(false);
      };
      stop.addEventListener("abort", leave, { once: true });
      queue.push(waiter);
      void this.#pump();
    });
  }

  async #tryShare(): Promise<boolean> {
    try {
      return (await this.#share.tryTake()).admitted;
    } catch (error) {
      this.#log.warn("auth key check share unavailable", { error: describeError(error) });
      return false;
    }
  }

  /**
   * Draws the share's tokens one by one while checks wait, each to the newest waiting check (an
   * older one is likelier a flood's, and nearer its deadline anyway). One pump per process.
   */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#waiting.length > 0) {
        let admitted: boolean;
        try {
          admitted = (await this.#share.take(KEY_CHECK_MS)).admitted;
        } catch (error) {
          this.#log.warn("auth key check share unavailable", { error: describeError(error) });
          for (const waiter of this.#waiting.splice(0)) waiter.admit(false);
          return;
        }
        if (!admitted) continue;
        // Nobody left (every waiter's time ran out): the token is spent unused.
        this.#waiting.pop()?.admit(true);
      }
    } finally {
      this.#pumping = false;
    }
  }

  #failed(tag: string, error: unknown): KeyCheck {
    const rejected = isGw2Failure(error) &&
      (error.kind === "key_rejected" || error.kind === "scope_missing");
    if (!rejected) return { ok: false, reason: "keyUnchecked" };
    this.#remember(tag, false);
    return { ok: false, reason: "keyRejected" };
  }

  #enter(group: string, change: 1 | -1): void {
    this.#runningTotal += change;
    const running = (this.#running.get(group) ?? 0) + change;
    if (running <= 0) this.#running.delete(group);
    else this.#running.set(group, running);
  }

  /** `true`: accepted lately; `false`: rejected lately; `undefined`: not known. */
  #recall(tag: string): boolean | undefined {
    const known = this.#remembered.get(tag);
    if (known === undefined) return undefined;
    if (known.until <= this.#clock.now()) {
      this.#remembered.delete(tag);
      return undefined;
    }
    return known.accepted;
  }

  #remember(tag: string, accepted: boolean): void {
    this.#remembered.delete(tag);
    this.#remembered.set(tag, { accepted, until: this.#clock.now() + REMEMBER_MS });
    for (const oldest of this.#remembered.keys()) {
      if (this.#remembered.size <= REMEMBERED_KEYS) break;
      this.#remembered.delete(oldest);
    }
  }
}
