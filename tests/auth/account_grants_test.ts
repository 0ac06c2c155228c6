/**
 * Grants by GW2 account: the index that lists an account's live grants, the one call that ends
 * them all (the sign-out page's), the cap on live grants per account and the rate of new ones -
 * and the one way every grant ends, which deletes its record, its index entry and its sealed key
 * together and tells the end hook.
 */

import assert from "node:assert/strict";
import { deriveSecrets } from "../../src/auth/crypto.ts";
import {
  type Grant,
  GRANT_START_EVERY_MS,
  GRANT_STARTS_BURST,
  Grants,
  MAX_ACCOUNT_GRANTS,
  type NewGrant,
} from "../../src/auth/grants.ts";
import { AuthStore } from "../../src/auth/store.ts";
import { silentLogger } from "../../src/log.ts";
import { ManualClock } from "../support/clock.ts";
import { openMemoryKv } from "../support/kv.ts";
import { pkce, TEST_SECRET } from "../support/oauth.ts";

const RESOURCE = "http://localhost/mcp";

async function setUp(kv: Deno.Kv, ended: { grant: Grant; why: string }[] = []) {
  const clock = new ManualClock();
  const grants = new Grants({
    store: new AuthStore(kv),
    secrets: await deriveSecrets(TEST_SECRET),
    clock,
    log: silentLogger,
    resource: RESOURCE,
    onEnded: (grant, why) => {
      ended.push({ grant, why });
      return Promise.resolve();
    },
  });
  return { grants, clock };
}

async function newGrant(account: string, clientId = "pcl.client"): Promise<NewGrant> {
  return {
    clientId,
    redirectUri: "http://127.0.0.1:5000/cb",
    challenge: (await pkce()).challenge,
    resource: RESOURCE,
    key: `KEY-OF-${account}-0123456789`,
    account,
    permissions: ["account"],
  };
}

/** Starts a grant of `account` and returns its id (from the code `pmc.<id>.<secret>`). */
async function start(grants: Grants, account: string, clientId?: string): Promise<string> {
  const started = await grants.begin(await newGrant(account, clientId));
  assert.ok(started.ok, "the grant starts");
  return started.code.split(".")[1] ?? "";
}

Deno.test("an account's grants are listed, and ending them all ends exactly those: their records, index entries and sealed keys", async () => {
  using kv = await openMemoryKv();
  const ended: { grant: Grant; why: string }[] = [];
  const { grants, clock } = await setUp(kv, ended);
  const mine = [await start(grants, "Alice.1234", "pcl.a")];
  clock.advance(1_000);
  mine.push(await start(grants, "Alice.1234", "pcl.b"));
  const theirs = await start(grants, "Bob.5678");
  const listed = await grants.liveGrants("Alice.1234");
  assert.deepEqual(listed.map((grant) => grant.id), mine, "least recently used first");
  assert.deepEqual(listed.map((grant) => grant.clientId), ["pcl.a", "pcl.b"]);
  assert.equal(await grants.endAccountGrants("Alice.1234"), 2);
  assert.deepEqual(await grants.liveGrants("Alice.1234"), []);
  assert.deepEqual((await grants.liveGrants("Bob.5678")).map((grant) => grant.id), [theirs]);
  const left = await Array.fromAsync(kv.list({ prefix: ["auth"] }));
  assert.deepEqual(
    left.map((entry) => entry.key.at(-1)).sort(),
    [theirs, theirs].sort(),
    "only the other account's grant and its index entry remain",
  );
  assert.deepEqual(ended.map((end) => [end.grant.id, end.why]), [
    [mine[0], "signed out"],
    [mine[1], "signed out"],
  ]);
  assert.equal(await grants.endAccountGrants("Alice.1234"), 0, "nothing left to end");
});

Deno.test("one account keeps at most 20 live grants: a new one ends the least recently used", async () => {
  using kv = await openMemoryKv();
  const ended: { grant: Grant; why: string }[] = [];
  const { grants, clock } = await setUp(kv, ended);
  const ids: string[] = [];
  for (let n = 0; n <= MAX_ACCOUNT_GRANTS; n++) {
    // Spaced past the rate of grant starts: only the cap is under test here.
    clock.advance(GRANT_START_EVERY_MS);
    ids.push(await start(grants, "Alice.1234"));
  }
  const live = (await grants.liveGrants("Alice.1234")).map((grant) => grant.id);
  assert.equal(live.length, MAX_ACCOUNT_GRANTS);
  assert.deepEqual(live, ids.slice(1), "the oldest one ended");
  assert.deepEqual(ended.map((end) => end.grant.id), [ids[0]]);
  assert.match(ended[0]?.why ?? "", /over 20 sign-ins/);
  assert.equal((await kv.get(["auth", "grant", ids[0] ?? ""])).versionstamp, null);
});

Deno.test("one account starts at most 10 grants at once, then one per 6 minutes: the attack of 400 sign-ins from one key is refused", async () => {
  using kv = await openMemoryKv();
  const { grants, clock } = await setUp(kv);
  const outcomes = [];
  for (let n = 0; n < 400; n++) outcomes.push(await grants.begin(await newGrant("Mallory.6666")));
  const started = outcomes.filter((outcome) => outcome.ok).length;
  assert.equal(started, GRANT_STARTS_BURST);
  const refused = outcomes.find((outcome) => !outcome.ok);
  assert.ok(refused !== undefined && !refused.ok);
  assert.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= GRANT_START_EVERY_MS + 1);
  // Another account is not held back by it.
  assert.ok((await grants.begin(await newGrant("Alice.1234"))).ok);
  clock.advance(GRANT_START_EVERY_MS + 1);
  assert.ok((await grants.begin(await newGrant("Mallory.6666"))).ok, "one more after 6 minutes");
  assert.equal((await grants.begin(await newGrant("Mallory.6666"))).ok, false);
  assert.equal((await grants.liveGrants("Mallory.6666")).length, GRANT_STARTS_BURST + 1);
});
