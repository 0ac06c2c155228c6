import assert from "node:assert/strict";
import { shapeAccount, shapeWallet } from "../../src/account/shape.ts";
import type { Account } from "../../src/gw2/schemas.ts";

const ACCOUNT: Account = {
  name: "Priory Tester.4821",
  world: 1004,
  created: "2014-03-18T19:42:00Z",
  age: 193_427_340,
  access: ["GuildWars2", "HeartOfThorns"],
  commander: true,
  fractal_level: 100,
  daily_ap: 11_203,
  monthly_ap: 1_482,
  wvw_rank: 687,
};
const TOKEN = { name: "Priory full access", permissions: ["account", "wallet"] };

Deno.test("shapeAccount() keeps the non-secret facts, hours played and the key's permissions", () => {
  assert.deepEqual(shapeAccount(ACCOUNT, TOKEN), {
    name: "Priory Tester.4821",
    world: 1004,
    created: "2014-03-18T19:42:00Z",
    hours_played: 53_729,
    access: ["GuildWars2", "HeartOfThorns"],
    commander: true,
    fractal_level: 100,
    wvw_rank: 687,
    key_permissions: ["account", "wallet"],
  });
});

Deno.test("shapeAccount() builds explicitly: the account GUID and the key's name cannot leak", () => {
  // As if the record schema had been widened: the GUID and guilds must not be carried.
  const widened: Account = Object.assign({}, ACCOUNT, {
    id: "C19467C6-F5AD-E211-8756-78E7D1936222",
    guilds: ["4BBB52AA-D768-4FC6-8EDE-C299F2822F0F"],
  });
  const text = JSON.stringify(shapeAccount(widened, TOKEN));
  assert.doesNotMatch(text, /C19467C6|4BBB52AA|"id"|guilds|Priory full access/);
  const { fractal_level: _f, wvw_rank: _w, ...noProgression } = ACCOUNT;
  const shaped = shapeAccount(noProgression, TOKEN);
  assert.ok(!("fractal_level" in shaped) && !("wvw_rank" in shaped));
});

Deno.test("shapeWallet() joins currency names and keeps upstream order", () => {
  const currencies = [
    { id: 1, name: "Coin", order: 101 },
    { id: 2, name: "Karma", order: 102 },
  ];
  assert.deepEqual(
    shapeWallet(
      [{ id: 2, value: 5 }, { id: 1, value: 31_415_926 }, { id: 999, value: 1 }],
      currencies,
    ),
    [
      { id: 2, name: "Karma", value: 5 },
      { id: 1, name: "Coin", value: 31_415_926 },
      { id: 999, name: null, value: 1 },
    ],
  );
});

Deno.test("shapeWallet() adds the gem exchange: coins on the Gem row, gems on the Coin row, only when read", () => {
  const currencies = [{ id: 1, name: "Coin", order: 10 }, { id: 4, name: "Gem", order: 20 }];
  const wallet = [{ id: 1, value: 31_415_926 }, { id: 4, value: 1_600 }, { id: 2, value: 5 }];
  assert.deepEqual(shapeWallet(wallet, currencies, { coins: 3_682_192, gems: 10_928 }), [
    { id: 1, name: "Coin", value: 31_415_926, gems: 10_928 },
    { id: 4, name: "Gem", value: 1_600, coins: 3_682_192 },
    { id: 2, name: null, value: 5 },
  ]);
  assert.deepEqual(shapeWallet(wallet, currencies, { gems: 0 })[1], {
    id: 4,
    name: "Gem",
    value: 1_600,
  }, "the gem side unread: no coins");
});
