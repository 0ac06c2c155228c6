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
  CHECKS_AT_ONCE,
  type KeyCheck,
  KeyCheckGate,
  keyCheckShare,
  REMEMBER_MS,
  type ShareBucket,
} from "../../src/auth/key_check.ts";
import { deriveSecrets } from "../../src/auth/crypto.ts";
import { TokenBucket } from "../../src/gw2/token_bucket.ts";
import { silentLogger } from "../../src/log.ts";
import { createFakeGw2, mintSubtoken, TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";
import { madeUpKey, TEST_SECRET } from "../support/oauth.ts";

function gateOver(
  kv: Deno.Kv,
  clock: ManualClock,
  budget = { burst: 300, perSec: 5 },
  share?: ShareBucket,
) {
  const secrets = deriveSecrets(TEST_SECRET);
  const fake = createFakeGw2({ now: () => clock.now() });
  const gw2 = clientOverFake(kv, clock, fake);
  const gate = new KeyCheckGate({
    gw2,
    share: share ?? new TokenBucket({
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
    outcomes.push(await gate.check(madeUpKey(n), `2001:db8:aa:bb::${n.toString(16)}`));
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
  assert.equal((await gate.check(madeUpKey(99), "2001:db8:aa:cc::1")).ok, false);
  assert.equal(asked("/v2/tokeninfo"), ADDRESS_CHECKS_BURST + 2, "another /64 is another sender");
});

Deno.test("one client address runs two checks at once; a third is refused before GW2 is asked", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const { gate, fake, asked } = gateOver(kv, clock);
  fake.control.injectFault("hang", { endpoint: "/v2/tokeninfo", times: Infinity });
  const hanging = [
    gate.check(madeUpKey(1), "203.0.113.9"),
    gate.check(madeUpKey(2), "203.0.113.9"),
  ];
  await settle();
  const third = await gate.check(madeUpKey(3), "203.0.113.9");
  assert.ok(!third.ok && third.reason === "tooManyChecks");
  assert.equal(asked("/v2/tokeninfo"), ADDRESS_CHECKS_AT_ONCE);
  clock.advance(60_000);
  const ended = await Promise.all(hanging);
  assert.deepEqual(ended.map((outcome) => outcome.ok ? "ok" : outcome.reason), [
    "keyUnchecked",
    "keyUnchecked",
  ]);
});

Deno.test("key checks spend only their share of the upstream budget: past a tenth of its burst, one check per fifth of its rate", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  // A budget of 300 at once and 5 a second: checks get 30 at once, then one a second.
  const { gate, asked } = gateOver(kv, clock);
  const started = clock.now();
  for (let n = 0; n < 40; n++) {
    const outcome = await gate.check(madeUpKey(n), `203.0.113.${n}`);
    assert.ok(!outcome.ok && outcome.reason === "keyRejected");
  }
  assert.equal(asked("/v2/tokeninfo"), 40);
  const elapsed = clock.now() - started;
  assert.ok(elapsed >= 9_500, `the ten past the share's burst waited 1 s each: ${elapsed} ms`);
});

Deno.test("under a flood of checks from many senders, a player's sign-in from another address is served next, not after the queue", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  // Checks get 2 at once, then one every half second.
  const { gate } = gateOver(kv, clock, { burst: 20, perSec: 10 });
  const flood: Promise<KeyCheck>[] = [];
  for (let sender = 0; sender < 30; sender++) {
    for (let n = 0; n < ADDRESS_CHECKS_AT_ONCE; n++) {
      flood.push(gate.check(madeUpKey(sender * 10 + n), `198.18.0.${sender}`));
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
  assert.ok(clock.now() - began <= 1_000, `the player waited ${clock.now() - began} ms`);
  clock.advance(60_000);
  await settle();
  const floodOutcomes = await Promise.all(flood);
  assert.ok(floodOutcomes.every((outcome) => !outcome.ok));
});

Deno.test("only a key's or a JWT's shape reaches GW2: nothing that could leave the Authorization header (line breaks, spaces, $, colons, quotes, escapes, other scripts)", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const { gate, fake } = gateOver(kv, clock);
  const good = TEST_KEYS.full;
  const shapes = [
    `${good}\r\nX-Injected: 1`,
    `${good}\nHost: evil.example`,
    `${good}%0d%0aX-Injected:%201`,
    `Bearer ${good}`,
    `${good} ${good}`,
    `${good}\u0000`,
    "${GW2_API_KEY}-0000-0000-0000-000000000000",
    `$(cat /etc/passwd)${good}`,
    `${good}:password`,
    `"${good}"`,
    `${good}/../../v2/tokeninfo`,
    `${good}?access_token=x`,
    `${good.slice(0, 40)}\uff21\uff22${good.slice(42)}`, // fullwidth letters
    `${good.slice(0, 40)}\u0410${good.slice(41)}`, // a Cyrillic A
    "x".repeat(2_001),
    "short",
  ];
  for (const shape of shapes) {
    assert.deepEqual(
      await gate.check(shape, "203.0.113.1"),
      { ok: false, reason: "keyMalformed" },
      JSON.stringify(shape.slice(0, 90)),
    );
  }
  assert.deepEqual(fake.control.requests, [], "no such shape was sent upstream");
  // What does pass: a 72-character key, and a GW2 subtoken (a JWT, letters, digits, - _ and .).
  const jwt = mintSubtoken("full", ["account"], clock.now(), clock.now() + 3_600_000);
  assert.match(jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.equal((await gate.check(jwt, "203.0.113.2")).ok, true);
  assert.equal((await gate.check(good, "203.0.113.3")).ok, true);
});

Deno.test("at most 100 checks run at once in a process, every address together: the next is refused before GW2 is asked", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  // A share wide enough that none of them waits for a token: only the cap is under test.
  const { gate, fake, asked } = gateOver(kv, clock, { burst: 2_000, perSec: 5 });
  fake.control.injectFault("hang", { endpoint: "/v2/tokeninfo", times: Infinity });
  const hanging: Promise<KeyCheck>[] = [];
  for (let n = 0; n < CHECKS_AT_ONCE; n++) {
    hanging.push(gate.check(madeUpKey(n), `198.18.${n >> 8}.${n & 255}`));
  }
  for (let turn = 0; turn < 50 && asked("/v2/tokeninfo") < CHECKS_AT_ONCE; turn++) await settle();
  assert.equal(asked("/v2/tokeninfo"), CHECKS_AT_ONCE);
  const next = await gate.check(madeUpKey(999), "203.0.113.50");
  assert.ok(!next.ok && next.reason === "checksBusy", JSON.stringify(next));
  assert.ok((next.retryAfterMs ?? 0) > 0);
  assert.equal(asked("/v2/tokeninfo"), CHECKS_AT_ONCE, "the 101st was not sent");
  clock.advance(60_000);
  await Promise.all(hanging);
  // Once they ended, checks run again.
  fake.control.clearFaults();
  assert.equal((await gate.check(TEST_KEYS.full, "203.0.113.50")).ok, true);
});

Deno.test("while a player's first check waits for the share, a sender's later checks take no token, even one free at that moment", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  // A share whose refill the test hands out: tokens free now (tryTake), and the waiting pump's.
  let free = 1;
  const refills: ((admitted: { admitted: boolean }) => void)[] = [];
  const share: ShareBucket = {
    tryTake: () => {
      const admitted = free > 0;
      if (admitted) free--;
      return Promise.resolve({ admitted });
    },
    take: () => new Promise((resolve) => refills.push(resolve)),
  };
  const { gate, asked } = gateOver(kv, clock, undefined, share);
  // The sender's first check takes the one free token; the share is then spent.
  assert.equal((await gate.check(madeUpKey(1), "198.51.100.66")).ok, false);
  assert.equal(asked("/v2/tokeninfo"), 1);
  // A player's first check waits for the next token.
  const player = gate.check(TEST_KEYS.full, "203.0.113.200");
  await settle();
  assert.equal(refills.length, 1, "the player waits for a refill");
  // A token is free again at this moment: the sender's next checks must not take it.
  free = 1;
  for (let n = 2; n < 6; n++) {
    const again = await gate.check(madeUpKey(n), "198.51.100.66");
    assert.ok(!again.ok && again.reason === "checksBusy", JSON.stringify(again));
  }
  assert.equal(asked("/v2/tokeninfo"), 1, "none of the sender's later checks reached GW2");
  refills.shift()?.({ admitted: true });
  assert.equal((await player).ok, true);
});
