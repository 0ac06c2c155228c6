import assert from "node:assert/strict";
import { CHARACTER_READ_CONCURRENCY, withHoldings } from "../../src/account/holdings.ts";
import { readHoldings } from "../support/holdings.ts";
import { requireScopes } from "../../src/account/scopes.ts";
import { Gw2KeyRejectedError, Gw2ScopeMissingError } from "../../src/gw2/errors.ts";
import type { Fresh } from "../../src/gw2/types.ts";
import { createFakeGw2, TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import type { FakeAccount } from "../fake_gw2/world/account.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";

async function setup() {
  const clock = new ManualClock({ advance: "delays" });
  const kv = await openMemoryKv();
  const fake = createFakeGw2({ now: () => clock.now() });
  const client = clientOverFake(kv, clock, fake);
  return { clock, fake, client, [Symbol.dispose]: () => kv.close() };
}

/** The fixture's own tally: every stack of every source, summed by id. */
function fixtureCounts(account: FakeAccount): Map<number, number> {
  const counts = new Map<number, number>();
  const add = (id: number, count: number) => {
    if (count > 0) counts.set(id, (counts.get(id) ?? 0) + count);
  };
  for (const row of account.accountMaterials) add(row.id, row.count);
  for (const slot of [...account.bank, ...account.sharedInventory]) {
    if (slot !== null) add(slot.id, slot.count);
  }
  for (const character of account.characters.values()) {
    for (const bag of character.inventory.bags) {
      for (const slot of bag?.inventory ?? []) if (slot !== null) add(slot.id, slot.count);
    }
    // What is worn counts once, except what the legendary armory lends.
    for (const worn of character.equipment) {
      if (worn.location !== "LegendaryArmory" && worn.location !== "EquippedFromLegendaryArmory") {
        add(worn.id, 1);
      }
    }
  }
  return counts;
}

function sorted(map: ReadonlyMap<number, number>): [number, number][] {
  return [...map].sort(([a], [b]) => a - b);
}

Deno.test("readHoldings() tallies storage, bank, shared slots and every bag of the 19-character account in 5 requests", async () => {
  using env = await setup();
  const veteran = env.fake.world.veteran;
  assert.equal(veteran.characters.size, 19);
  const holdings = await readHoldings(env.client, TEST_KEYS.veteran);
  assert.deepEqual(sorted(holdings.counts), sorted(fixtureCounts(veteran)));
  assert.equal(holdings.characters, 19);
  const paths = env.fake.control.requests.map((request) =>
    new URLSearchParams(request.query).get("ids") === "all"
      ? `${request.path}?ids=all`
      : request.path
  );
  assert.equal(paths[0], "/v2/tokeninfo", "scopes first");
  assert.deepEqual(paths.slice(1).sort(), [
    "/v2/account/bank",
    "/v2/account/inventory",
    "/v2/account/materials",
    "/v2/characters?ids=all",
  ]);
  // Legendary materials lie in every kind of place.
  const clovers = holdings.places.get(env.fake.world.wellKnown.mysticClover) ?? [];
  assert.deepEqual(
    new Set(clovers.map((place) => place.source)),
    new Set(["material_storage", "bank", "character"]),
  );
});

Deno.test("readHoldings() counts what characters wear as a place of its own, not what the legendary armory lends", async () => {
  using env = await setup();
  const { wellKnown } = env.fake.world;
  const holdings = await readHoldings(env.client, TEST_KEYS.veteran);
  // Aldric keeps The Predator's precursor in an equipment tab: nowhere else on the account.
  assert.deepEqual(holdings.places.get(wellKnown.theHunter), [
    { source: "equipment", character: "Aldric Stormvale", count: 1 },
  ]);
  assert.equal(holdings.counts.get(wellKnown.theHunter), 1);
  // Sunrise in his armory tab is the account's legendary armory's: never consumed, not counted.
  assert.equal(holdings.counts.has(wellKnown.sunrise), false);
  // Every character wears its gear: six armor pieces and a weapon each, at least.
  const wearers = new Set(
    [...holdings.places.values()].flat().filter((place) => place.source === "equipment")
      .map((place) => place.character),
  );
  assert.equal(wearers.size, 19);
});

Deno.test("readHoldings() is served from the KV cache for five minutes", async () => {
  using env = await setup();
  const first = await readHoldings(env.client, TEST_KEYS.full);
  assert.deepEqual(sorted(first.counts), sorted(fixtureCounts(env.fake.world)));
  const served = env.fake.control.requests.length;
  const again = await readHoldings(env.client, TEST_KEYS.full);
  assert.equal(env.fake.control.requests.length, served, "no upstream request on a repeat");
  assert.deepEqual(sorted(again.counts), sorted(first.counts));
  env.clock.advance(5 * 60_000);
  await readHoldings(env.client, TEST_KEYS.full);
  assert.equal(env.fake.control.requests.length, 2 * served, "read again after five minutes");
});

Deno.test("readHoldings() names every missing scope at once, before any other request", async () => {
  using env = await setup();
  await assert.rejects(readHoldings(env.client, TEST_KEYS.accountOnly), (error) => {
    assert.ok(error instanceof Gw2ScopeMissingError);
    assert.deepEqual(error.scopes, ["inventories", "characters"]);
    return true;
  });
  await assert.rejects(readHoldings(env.client, TEST_KEYS.noCharacters), (error) => {
    assert.ok(error instanceof Gw2ScopeMissingError);
    assert.deepEqual(error.scopes, ["characters"]);
    return true;
  });
  await assert.rejects(readHoldings(env.client, UNKNOWN_KEY), Gw2KeyRejectedError);
  const paths = env.fake.control.requests.map((request) => request.path);
  assert.deepEqual(paths, ["/v2/tokeninfo", "/v2/tokeninfo", "/v2/tokeninfo"]);
});

Deno.test("withHoldings() checks the scopes before its work starts, then runs both at once", async () => {
  using env = await setup();
  let started = 0;
  const work = () => {
    started++;
    return env.client.items([19721]);
  };
  await assert.rejects(withHoldings(env.client, TEST_KEYS.accountOnly, work), (error) => {
    assert.ok(error instanceof Gw2ScopeMissingError);
    assert.deepEqual(error.scopes, ["inventories", "characters"]);
    return true;
  });
  assert.equal(started, 0, "no work for a key lacking scopes");
  assert.deepEqual(env.fake.control.requests.map((request) => request.path), ["/v2/tokeninfo"]);

  env.fake.control.reset();
  const { holdings, value } = await withHoldings(env.client, TEST_KEYS.veteran, work);
  assert.equal(holdings.characters, 19);
  assert.equal(value.found[0]?.id, 19721);
  const paths = env.fake.control.requests.map((request) => request.path);
  assert.equal(paths[0], "/v2/tokeninfo");
  assert.deepEqual(
    new Set(paths.slice(1)),
    new Set([
      "/v2/account/materials",
      "/v2/account/bank",
      "/v2/account/inventory",
      "/v2/characters",
      "/v2/items",
    ]),
  );
});

Deno.test("withHoldings() reads the key's scopes once, not again for the holdings", async () => {
  using env = await setup();
  let tokenReads = 0;
  const counting = new Proxy(env.client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== "doc" || typeof value !== "function") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (name: string, ...args: unknown[]) => {
        if (name === "tokenInfo") tokenReads++;
        return Reflect.apply(value, target, [name, ...args]);
      };
    },
  });
  await withHoldings(counting, TEST_KEYS.veteran, () => Promise.resolve());
  assert.equal(tokenReads, 1);
});

Deno.test("requireScopes() passes a key holding every scope", async () => {
  using env = await setup();
  await requireScopes(env.client, TEST_KEYS.noWallet, ["account", "inventories", "characters"]);
  await assert.rejects(
    requireScopes(env.client, TEST_KEYS.noWallet, ["wallet"]),
    Gw2ScopeMissingError,
  );
});

/**
 * A client whose reads each take a moment, counting how many are in flight at once; its bulk
 * character read comes without bags.
 */
class SlowStub extends StubGw2Client {
  #inFlight = 0;
  maxInFlight = 0;
  readonly inventoryReads: string[] = [];
  constructor(readonly withBags: boolean) {
    super();
    const bag = { id: 8932, size: 1, inventory: [{ id: 19721, count: 1 }] };
    this.serveDoc(
      "tokenInfo",
      () => this.#slow({ name: "k", permissions: ["account", "inventories", "characters"] }),
    )
      .serveDoc("accountMaterials", () => this.#slow([{ id: 19721, category: 29, count: 10 }]))
      .serveDoc("accountBank", () => this.#slow([]))
      .serveDoc("accountInventory", () => this.#slow([]))
      .serveDoc("characterBags", () =>
        this.#slow(
          Array.from({ length: 19 }, (_, index) => ({
            name: `Character ${index}`,
            ...(this.withBags ? { bags: [bag] } : {}),
          })),
        ))
      .serveDoc("characterInventory", ({ name }) => {
        this.inventoryReads.push(name);
        return this.#slow({ bags: [bag] });
      });
  }
  async #slow<T>(value: T): Promise<Fresh<T>> {
    this.#inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    this.#inFlight--;
    return { value };
  }
}

Deno.test("readHoldings() reads the four sources at once, after the scope check", async () => {
  const stub = new SlowStub(true);
  const holdings = await readHoldings(stub, "key");
  assert.equal(stub.maxInFlight, 4);
  assert.deepEqual(stub.calls.map((call) => call.method), [
    "tokenInfo",
    "accountMaterials",
    "accountBank",
    "accountInventory",
    "characterBags",
  ]);
  assert.equal(stub.inventoryReads.length, 0);
  assert.equal(holdings.counts.get(19721), 10 + 19);
});

Deno.test("readHoldings() reads a character's bags on its own when the bulk read lacks them, bounded", async () => {
  const stub = new SlowStub(false);
  const holdings = await readHoldings(stub, "key");
  assert.equal(stub.inventoryReads.length, 19);
  assert.equal(stub.maxInFlight, CHARACTER_READ_CONCURRENCY);
  assert.equal(holdings.counts.get(19721), 10 + 19);
});
