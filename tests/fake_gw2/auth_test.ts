import assert from "node:assert/strict";
import { asArray, asRecord, bearer, errorBody, get } from "./_support.ts";
import { createFakeGw2, playerKey, TEST_KEYS, UNKNOWN_KEY } from "./mod.ts";

const fake = createFakeGw2({ rateBurst: Infinity });
const world = fake.world;
const KEY_FORMAT =
  /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{20}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/u;
const ZOE = encodeURIComponent("Zoë Ironfist");

Deno.test("TEST_KEYS and UNKNOWN_KEY are distinct keys in the GW2 key format", () => {
  const keys = [...Object.values(TEST_KEYS), UNKNOWN_KEY];
  for (const key of keys) assert.match(key, KEY_FORMAT);
  assert.equal(new Set(keys).size, keys.length);
});

Deno.test("fake.fetch() accepts the key as a bearer header or as access_token", async () => {
  const byHeader = await get(fake, "/v2/account", bearer(TEST_KEYS.full));
  const byQuery = await get(fake, `/v2/account?access_token=${TEST_KEYS.full}`);
  assert.equal(byHeader.status, 200);
  assert.equal(byQuery.text, byHeader.text);
  assert.equal(asRecord(byHeader.body).name, world.account.name);
  assert.equal(byHeader.headers.get("cache-control"), "private, max-age=300");
});

Deno.test("fake.fetch() answers 401 Invalid access token without a known key", async (t) => {
  const cases: readonly (readonly [string, string, RequestInit])[] = [
    ["no key", "/v2/account", {}],
    ["unknown key", "/v2/account", bearer(UNKNOWN_KEY)],
    ["unknown access_token", `/v2/account/bank?access_token=${UNKNOWN_KEY}`, {}],
    ["malformed header", "/v2/account", { headers: { Authorization: "Bearer" } }],
    ["other scheme", "/v2/account", { headers: { Authorization: `Basic ${TEST_KEYS.full}` } }],
    ["tokeninfo", "/v2/tokeninfo", bearer(UNKNOWN_KEY)],
    ["characters", `/v2/characters/${ZOE}/inventory`, {}],
  ];
  for (const [label, path, init] of cases) {
    await t.step(label, async () => {
      const got = await get(fake, path, init);
      assert.equal(got.status, 401);
      assert.equal(got.text, errorBody("Invalid access token"));
    });
  }
});

Deno.test("fake.fetch() answers 403 naming the first missing scope", async (t) => {
  const cases: readonly (readonly [string, string, string])[] = [
    ["/v2/account/bank", TEST_KEYS.accountOnly, "inventories"],
    ["/v2/account/materials", TEST_KEYS.noInventories, "inventories"],
    ["/v2/account/inventory", TEST_KEYS.noInventories, "inventories"],
    ["/v2/account/wallet", TEST_KEYS.noWallet, "wallet"],
    ["/v2/characters", TEST_KEYS.noCharacters, "characters"],
    [`/v2/characters/${ZOE}`, TEST_KEYS.accountOnly, "characters"],
    [`/v2/characters/${ZOE}/inventory`, TEST_KEYS.noInventories, "inventories"],
    [`/v2/characters/${ZOE}/inventory`, TEST_KEYS.accountOnly, "characters"],
    ["/v2/characters/Nobody/inventory", TEST_KEYS.noCharacters, "characters"],
  ];
  for (const [path, key, scope] of cases) {
    await t.step(`${path} needs ${scope}`, async () => {
      const got = await get(fake, path, bearer(key));
      assert.equal(got.status, 403);
      assert.equal(got.text, errorBody(`requires scope ${scope}`));
    });
  }
});

Deno.test("fake.fetch() ignores keys on public endpoints", async () => {
  const got = await get(fake, "/v2/items/19721", bearer(UNKNOWN_KEY));
  assert.equal(got.status, 200);
});

Deno.test("fake.fetch() serves the account endpoints to a key with the scopes", async (t) => {
  const full = bearer(TEST_KEYS.full);
  await t.step("material storage, wallet, bank and shared inventory", async () => {
    assert.deepEqual((await get(fake, "/v2/account/materials", full)).body, world.accountMaterials);
    assert.deepEqual((await get(fake, "/v2/account/wallet", full)).body, world.wallet);
    const bank = await get(fake, "/v2/account/bank", full);
    assert.deepEqual(bank.body, world.bank);
    assert.equal(asArray(bank.body).length % 30, 0);
    assert.deepEqual((await get(fake, "/v2/account/inventory", full)).body, world.sharedInventory);
  });
  await t.step("blob endpoints ignore bulk parameters", async () => {
    const got = await get(fake, "/v2/account/wallet?ids=1&page=0", full);
    assert.deepEqual(got.body, world.wallet);
  });
});

Deno.test("fake.fetch() shapes /v2/account by scopes and schema version", async (t) => {
  await t.step("an account-only key gets no progression fields", async () => {
    const got = asRecord((await get(fake, "/v2/account", bearer(TEST_KEYS.accountOnly))).body);
    assert.equal(got.fractal_level, undefined);
    assert.equal(got.wvw_rank, undefined);
    assert.equal(got.guild_leader, undefined);
    assert.equal(got.last_modified, undefined);
  });
  await t.step(
    "progression adds fractal level, AP and WvW rank in the classic schema",
    async () => {
      const got = asRecord((await get(fake, "/v2/account", bearer(TEST_KEYS.full))).body);
      assert.equal(got.fractal_level, world.account.fractal_level);
      assert.equal(got.wvw_rank, world.account.wvw_rank);
      assert.equal(got.build_storage_slots, undefined);
    },
  );
  await t.step("newer schemas add last_modified, build storage and the wvw object", async () => {
    const pinned = asRecord(
      (await get(fake, "/v2/account?v=2022-03-09T02:00:00.000Z", bearer(TEST_KEYS.full))).body,
    );
    assert.equal(pinned.last_modified, world.account.last_modified);
    assert.equal(pinned.build_storage_slots, world.account.build_storage_slots);
    assert.equal(pinned.wvw_rank, world.account.wvw_rank);
    const latest = asRecord((await get(fake, "/v2/account?v=latest", bearer(TEST_KEYS.full))).body);
    assert.equal(latest.wvw_rank, undefined);
    assert.deepEqual(latest.wvw, world.account.wvw);
  });
});

Deno.test("fake.fetch() serves characters by name, bulk and inventory", async (t) => {
  const full = bearer(TEST_KEYS.full);
  await t.step("the bare list is the names", async () => {
    const got = await get(fake, "/v2/characters", full);
    assert.deepEqual(got.body, [...world.characters.keys()]);
    assert.equal(got.headers.get("x-result-total"), String(world.characters.size));
  });
  await t.step("one character by URL-encoded name, with bags for inventories", async () => {
    const got = asRecord((await get(fake, `/v2/characters/${ZOE}`, full)).body);
    assert.equal(got.name, "Zoë Ironfist");
    assert.ok(Array.isArray(got.bags));
    assert.equal(got.last_modified, undefined, "classic schema");
    const worn = asArray(got.equipment).map(asRecord);
    assert.ok(worn.length > 0 && worn.every((entry) => entry.location === undefined));
    const modern = asRecord((await get(fake, `/v2/characters/${ZOE}?v=latest`, full)).body);
    assert.equal(typeof modern.last_modified, "string");
    assert.ok(
      asArray(modern.equipment).map(asRecord).every((entry) => entry.location !== undefined),
    );
    const noBags = asRecord(
      (await get(fake, `/v2/characters/${ZOE}`, bearer(TEST_KEYS.noInventories))).body,
    );
    assert.equal(noBags.bags, undefined);
    assert.equal(noBags.equipment, undefined, "equipment needs inventories or builds");
  });
  await t.step("ids= with an unknown name is 206", async () => {
    const got = await get(fake, `/v2/characters?ids=${ZOE},Nobody`, full);
    assert.equal(got.status, 206);
    assert.deepEqual(asArray(got.body).map((record) => asRecord(record).name), ["Zoë Ironfist"]);
  });
  await t.step("the inventory endpoint answers the bags", async () => {
    const got = await get(fake, `/v2/characters/${ZOE}/inventory`, full);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, world.characters.get("Zoë Ironfist")?.inventory);
  });
  await t.step("an unknown name is 404 no such character (chosen)", async () => {
    for (const path of ["/v2/characters/Nobody", "/v2/characters/Nobody/inventory"]) {
      const got = await get(fake, path, full);
      assert.equal(got.status, 404, path);
      assert.equal(got.text, errorBody("no such character"));
    }
    const all = await get(fake, "/v2/characters?ids=Nobody", full);
    assert.equal(all.text, errorBody("all ids provided are invalid"));
  });
});

Deno.test("fake.fetch() describes the key on /v2/tokeninfo per schema", async (t) => {
  await t.step("classic: id, name, permissions", async () => {
    const got = await get(fake, "/v2/tokeninfo", bearer(TEST_KEYS.noWallet));
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, {
      id: TEST_KEYS.noWallet.slice(0, 36),
      name: "No wallet",
      permissions: ["account", "inventories", "characters"],
    });
    assert.equal(got.headers.get("cache-control"), "private, max-age=60");
  });
  await t.step("since 2019-05-22: type APIKey", async () => {
    const got = await get(fake, `/v2/tokeninfo?v=latest&access_token=${TEST_KEYS.full}`);
    assert.deepEqual(asRecord(got.body).type, "APIKey");
    assert.equal(asRecord(got.body).id, "FA11C0DE-0001-4F00-8A00-00000000F011");
  });
});

Deno.test("fake.fetch() answers the veteran key from the 19-character veteran account", async () => {
  const veteran = world.veteran;
  const account = await get(fake, "/v2/account", bearer(TEST_KEYS.veteran));
  assert.equal(asRecord(account.body).name, veteran.account.name);
  assert.notEqual(veteran.account.name, world.account.name);
  const names = await get(fake, "/v2/characters", bearer(TEST_KEYS.veteran));
  assert.deepEqual(names.body, [...veteran.characters.keys()]);
  const all = asArray((await get(fake, "/v2/characters?ids=all", bearer(TEST_KEYS.veteran))).body);
  assert.equal(all.length, 19);
  const first = [...veteran.characters.values()][0];
  assert.deepEqual(asRecord(all[0]).bags, first?.inventory.bags);
  const bank = await get(fake, "/v2/account/bank", bearer(TEST_KEYS.veteran));
  assert.deepEqual(bank.body, veteran.bank);
  const zoe = await get(fake, `/v2/characters/${ZOE}/inventory`, bearer(TEST_KEYS.veteran));
  assert.equal(zoe.status, 404, "the main account's character is not the veteran's");
});

Deno.test("playerKey() makes distinct players: the main account's data under a name of their own", async () => {
  const [one, two] = [playerKey(1), playerKey(2)];
  assert.match(one, KEY_FORMAT);
  assert.notEqual(one, two);
  const names = await Promise.all(
    [one, two].map(async (key) =>
      asRecord((await get(fake, "/v2/account", bearer(key))).body).name
    ),
  );
  assert.deepEqual(names, ["Priory Player 1.1001", "Priory Player 2.1002"]);
  const wallet = await get(fake, "/v2/account/wallet", bearer(two));
  assert.deepEqual(
    wallet.body,
    (await get(fake, "/v2/account/wallet", bearer(TEST_KEYS.full))).body,
  );
  assert.throws(() => playerKey(0), RangeError);
});
