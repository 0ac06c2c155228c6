/**
 * The key-check gate under a flood of made-up keys: tokeninfo first and account only for a key
 * that passed, a rejected key remembered (not asked again), limits per client address (an IPv6
 * /64 counting as one), and the checks' own share of the upstream budget, handed out by address
 * so a player's sign-in from another address goes ahead of a sender's queue.
 */

import assert from "node:assert/strict";
import {
  ADDRESS_CHECKS_AT_ONCE,
  ADDRESS_CHECKS_BURST,
  type KeyCheck,
  KeyCheckGate,
  keyCheckShare,
  REMEMBER_MS,
} from "../../src/auth/key_check.ts";
import { deriveSecrets } from "../../src/auth/crypto.ts";
import { TokenBucket } from "../../src/gw2/token_bucket.ts";
import { silentLogger } from "../../src/log.ts";
import { createFakeGw2, TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";
import { TEST_SECRET } from "../support/oauth.ts";

/** A made-up key of the right shape, different for each `n`. */
function madeUp(n: number): string {
  const part = String(n).padStart(12, "0");
  return `BADBADBA-0000-4000-8000-${part}0BADC0DE-0000-4000-8000-${part}`;
}

function gateOver(
  kv: Deno.Kv,
  clock: ManualClock,
  budget = { burst: 300, perSec: 5 },
) {
  const secrets = deriveSecrets(TEST_SECRET);
  const fake = createFakeGw2({ now: () => clock.now() });
  const gw2 = clientOverFake(kv, clock, fake);
  const gate = new KeyCheckGate({
    gw2,
    share: new TokenBucket({
      kv,
      key: ["share"],
      ...keyCheckShare(budget),
      clock,
      random: () => 0,
    }),
    clock,
    log: silentLogger,
    tag: (key) => secrets.then((derived) => derived.keyTag(key)),
  });
  const asked = (path: string) =>
    fake.control.requests.filter((entry) => entry.path === path).length;
  return { gate, fake, asked };
}

/** Lets every reaction of the last clock move run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 40; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

Deno.test("a key check asks tokeninfo first, and account only for a key that passed", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const { gate, asked } = gateOver(kv, clock);
  assert.deepEqual(await gate.check(UNKNOWN_KEY, "203.0.113.1"), {
    ok: false,
    reason: "keyRejected",
  });
  assert.deepEqual([asked("/v2/tokeninfo"), asked("/v2/account")], [1, 0]);
  const good = await gate.check(TEST_KEYS.accountOnly, "203.0.113.1");
  assert.deepEqual(good, { ok: true, account: "Priory Tester.4821", permissions: ["account"] });
  assert.deepEqual([asked("/v2/tokeninfo"), asked("/v2/account")], [2, 1]);
  assert.deepEqual(await gate.check("", "203.0.113.1"), { ok: false, reason: "keyMissing" });
  assert.deepEqual(await gate.check("not a key!", "203.0.113.1"), {
    ok: false,
    reason: "keyMalformed",
  });
  assert.equal(asked("/v2/tokeninfo"), 2, "no shape that cannot be a key is asked");
});

Deno.test("a rejected key is remembered: sent again, GW2 is not asked, until the memory passes", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const { gate, asked } = gateOver(kv, clock);
  for (let n = 0; n < 50; n++) {
    assert.equal((await gate.check(UNKNOWN_KEY, `203.0.113.${n}`)).ok, false);
  }
  assert.equal(asked("/v2/tokeninfo"), 1);
  clock.advance(REMEMBER_MS + 1);
  await gate.check(UNKNOWN_KEY, "203.0.113.1");
  assert.equal(asked("/v2/tokeninfo"), 2);
});

Deno.test("one client address makes 10 checks in a row, then is refused with when to come back; others are not", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const { gate, asked } = gateOver(kv, clock);
  const outcomes: KeyCheck[] = [];
  // One IPv6 sender moving through its /64 is one address.
  for (let n = 0; n < 40; n++) {
    outcomes.push(await gate.check(madeUp(n), `2001:db8:aa:bb::${n.toString(16)}`));
  }
  const asked0 = outcomes.filter((outcome) => !outcome.ok && outcome.reason === "keyRejected");
  assert.equal(asked0.length, ADDRESS_CHECKS_BURST);
  const refused = outcomes.at(-1);
  assert.ok(refused !== undefined && !refused.ok);
  assert.equal(refused.reason, "tooManyChecks");
  assert.ok((refused.retryAfterMs ?? 0) > 60_000, "minutes, not seconds");
  assert.equal(asked("/v2/tokeninfo"), ADDRESS_CHECKS_BURST);
  // A player elsewhere signs in.
  assert.equal((await gate.check(TEST_KEYS.full, "198.51.100.7")).ok, true);
  assert.equal((await gate.check(madeUp(99), "2001:db8:aa:cc::1")).ok, false);
  assert.equal(asked("/v2/tokeninfo"), ADDRESS_CHECKS_BURST + 2, "another /64 is another sender");
});

Deno.test("one client address runs two checks at once; a third is refused before GW2 is asked", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const { gate, fake, asked } = gateOver(kv, clock);
  fake.control.injectFault("hang", { endpoint: "/v2/tokeninfo", times: Infinity });
  const hanging = [gate.check(madeUp(1), "203.0.113.9"), gate.check(madeUp(2), "203.0.113.9")];
  await settle();
  const third = await gate.check(madeUp(3), "203.0.113.9");
  assert.ok(!third.ok && third.reason === "tooManyChecks");
  assert.equal(asked("/v2/tokeninfo"), ADDRESS_CHECKS_AT_ONCE);
  clock.advance(60_000);
  const ended = await Promise.all(hanging);
  assert.deepEqual(ended.map((outcome) => outcome.ok ? "ok" : outcome.reason), [
    "keyUnchecked",
    "keyUnchecked",
  ]);
});

Deno.test("key checks spend only their share of the upstream budget: past a tenth of its burst, one check per tenth of its rate", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  // A budget of 300 at once and 5 a second: checks get 30 at once, then one each 2 s.
  const { gate, asked } = gateOver(kv, clock);
  const started = clock.now();
  for (let n = 0; n < 40; n++) {
    const outcome = await gate.check(madeUp(n), `203.0.113.${n}`);
    assert.ok(!outcome.ok && outcome.reason === "keyRejected");
  }
  assert.equal(asked("/v2/tokeninfo"), 40);
  const elapsed = clock.now() - started;
  assert.ok(elapsed >= 19_000, `the ten past the share's burst waited 2 s each: ${elapsed} ms`);
});

Deno.test("under a flood of checks from many senders, a player's sign-in from another address is served next, not after the queue", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  // Checks get 2 at once, then one a second.
  const { gate } = gateOver(kv, clock, { burst: 20, perSec: 10 });
  const flood: Promise<KeyCheck>[] = [];
  for (let sender = 0; sender < 30; sender++) {
    for (let n = 0; n < ADDRESS_CHECKS_AT_ONCE; n++) {
      flood.push(gate.check(madeUp(sender * 10 + n), `198.18.0.${sender}`));
    }
  }
  await settle();
  const player = gate.check(TEST_KEYS.full, "203.0.113.200");
  let done: KeyCheck | undefined;
  void player.then((outcome) => done = outcome);
  await settle();
  const began = clock.now();
  while (done === undefined && clock.now() - began < 30_000) {
    clock.advance(100);
    await settle();
  }
  assert.equal(done?.ok, true, JSON.stringify(done));
  assert.ok(clock.now() - began <= 3_000, `the player waited ${clock.now() - began} ms`);
  clock.advance(60_000);
  await settle();
  const floodOutcomes = await Promise.all(flood);
  assert.ok(floodOutcomes.every((outcome) => !outcome.ok));
});
