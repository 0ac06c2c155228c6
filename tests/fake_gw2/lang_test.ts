/**
 * The fake answers `?lang=` as the GW2 API does: items, currencies and material categories in
 * the language asked, only their names differing; `lang` over `Accept-Language`, English
 * otherwise; the legendary trees' items under ArenaNet's own names.
 */
import assert from "node:assert/strict";
import { asArray, asRecord, get } from "./_support.ts";
import { createFakeGw2, WELL_KNOWN } from "./mod.ts";
import { realItemName } from "./world/localized.ts";

const fake = createFakeGw2({ rateBurst: Infinity });
const world = fake.world;

async function names(path: string, init: RequestInit = {}): Promise<Map<number, string>> {
  const got = await get(fake, path, init);
  assert.equal(got.status, 200, path);
  return new Map(
    asArray(got.body).map((value) => {
      const record = asRecord(value);
      return [Number(record.id), String(record.name)];
    }),
  );
}

Deno.test("fake: /v2/items?lang= names the legendary trees' items as ArenaNet does", async () => {
  const ids = [WELL_KNOWN.twilight, WELL_KNOWN.globOfEctoplasm, WELL_KNOWN.sunrise].join(",");
  assert.deepEqual(
    await names(`/v2/items?ids=${ids}&lang=de`),
    new Map([[30703, "Sonnenaufgang"], [30704, "Düsternis"], [19721, "Ektoplasmabatzen"]]),
  );
  const french = await names(`/v2/items?ids=${ids}&lang=fr`);
  assert.equal(french.get(WELL_KNOWN.twilight), "Crépuscule");
  assert.equal(french.get(WELL_KNOWN.globOfEctoplasm), "Boule d'ectoplasme");
  assert.equal(
    (await names(`/v2/items?ids=${ids}&lang=es`)).get(WELL_KNOWN.twilight),
    "Crepúsculo",
  );
  assert.equal((await names(`/v2/items?ids=${ids}&lang=zh`)).get(WELL_KNOWN.twilight), "暗暮");
  assert.equal((await names(`/v2/items?ids=${ids}&lang=en`)).get(WELL_KNOWN.twilight), "Twilight");
  assert.equal(realItemName(WELL_KNOWN.dawn, "es"), "Alba", "a lowered name gets its capital back");
});

Deno.test("fake: a localized record differs from the English one in its name alone", async () => {
  const filler = world.fillerItemIds[0] ?? 0;
  for (const lang of ["de", "fr", "es", "zh"]) {
    for (const id of [WELL_KNOWN.twilight, filler]) {
      const english = asRecord((await get(fake, `/v2/items/${id}`)).body);
      const got = await get(fake, `/v2/items/${id}?lang=${lang}`);
      assert.equal(got.headers.get("content-language"), lang);
      const localized = asRecord(got.body);
      assert.notEqual(localized.name, english.name, `${id} in ${lang}`);
      assert.deepEqual({ ...localized, name: english.name }, english, `${id} in ${lang}`);
    }
  }
});

Deno.test("fake: generated names read like their language (accents, ß, no-break spaces, Han)", async () => {
  const ids = world.fillerItemIds.slice(0, 200).join(",");
  const someName = async (lang: string, test: RegExp) =>
    [...(await names(`/v2/items?ids=${ids}&lang=${lang}`)).values()].some((name) =>
      test.test(name)
    );
  assert.ok(await someName("de", /ß/u), "German ß");
  assert.ok(await someName("de", /[äöü]/u), "German umlauts");
  assert.ok(await someName("fr", /[éèêàâç]/u), "French accents");
  assert.ok(await someName("zh", /^\p{Script=Han}+$/u), "Chinese without spaces");
  const again = await names(`/v2/items?ids=${ids}&lang=fr`);
  assert.deepEqual(await names(`/v2/items?ids=${ids}&lang=fr`), again, "deterministic");
});

Deno.test("fake: currencies and material categories answer in the language asked", async () => {
  const currencies = await names("/v2/currencies?ids=all&lang=fr");
  assert.equal(currencies.get(1), "Pièce");
  assert.equal(currencies.size, world.currencies.size);
  assert.equal((await names("/v2/currencies?ids=1,2&lang=zh")).get(1), "金币");
  const categories = await names("/v2/materials?ids=all&lang=de");
  assert.equal(categories.get(30), "Edelsteine und Juwelen");
  const english = asRecord(asArray((await get(fake, "/v2/materials?ids=5")).body)[0]);
  const german = asRecord(asArray((await get(fake, "/v2/materials?ids=5&lang=de")).body)[0]);
  assert.deepEqual(german.items, english.items, "only the name is localized");
});

Deno.test("fake: lang wins over Accept-Language, which is read without it; otherwise English", async () => {
  const path = `/v2/items?ids=${WELL_KNOWN.twilight}`;
  const german = { headers: { "Accept-Language": "de-DE,de;q=0.9,en;q=0.8" } };
  assert.equal((await names(path, german)).get(WELL_KNOWN.twilight), "Düsternis");
  assert.equal((await names(`${path}&lang=fr`, german)).get(WELL_KNOWN.twilight), "Crépuscule");
  assert.equal((await names(`${path}&lang=en`, german)).get(WELL_KNOWN.twilight), "Twilight");
  assert.equal((await names(`${path}&lang=xx`)).get(WELL_KNOWN.twilight), "Twilight");
  const recipes = await get(fake, "/v2/recipes?ids=7319&lang=de");
  assert.equal(recipes.headers.get("content-language"), null, "recipes are not localized");
  const logged = fake.control.requests.at(-1);
  assert.equal(logged?.acceptLanguage, undefined);
  await get(fake, path, german);
  assert.equal(fake.control.requests.at(-1)?.acceptLanguage, "de-DE,de;q=0.9,en;q=0.8");
});
