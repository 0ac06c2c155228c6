import assert from "node:assert/strict";
import { asArray, asRecord, bearer, errorBody, get, idsOf } from "./_support.ts";
import { createFakeGw2, TEST_KEYS, WELL_KNOWN } from "./mod.ts";

const fake = createFakeGw2({ rateBurst: Infinity });
const world = fake.world;
const itemCount = world.items.size;

Deno.test("fake.fetch() lists every id on a bare endpoint, pretty-printed", async () => {
  const got = await get(fake, "/v2/items");
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, [...world.items.keys()]);
  assert.equal(got.text, JSON.stringify([...world.items.keys()], null, 2));
  assert.equal(got.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(got.headers.get("x-rate-limit-limit"), "600");
  assert.equal(got.headers.get("access-control-allow-origin"), "*");
  assert.equal(got.headers.get("cache-control"), "public, max-age=3600");
  assert.equal(got.headers.get("content-language"), "en");
  assert.equal(got.headers.get("x-result-count"), String(itemCount));
  assert.equal(got.headers.get("x-result-total"), String(itemCount));
  assert.ok(got.headers.has("expires"));
});

Deno.test("fake.fetch() answers one record for /ID and ?id=, 404 otherwise", async (t) => {
  await t.step("by path and by id= alike", async () => {
    const byPath = await get(fake, "/v2/items/19721");
    const byQuery = await get(fake, "/v2/items?id=19721");
    assert.equal(byPath.status, 200);
    assert.equal(byPath.text, JSON.stringify(world.items.get(19721), null, 2));
    assert.equal(byQuery.text, byPath.text);
    assert.equal(byPath.headers.get("x-result-count"), null);
  });
  await t.step("an unknown or malformed id is 404 no such id", async () => {
    for (const path of ["/v2/items/1", "/v2/items?id=1", "/v2/items/abc", "/v2/items?id="]) {
      const got = await get(fake, path);
      assert.equal(got.status, 404, path);
      assert.equal(got.text, errorBody("no such id"), path);
      assert.equal(got.headers.get("cache-control"), "no-cache");
    }
  });
  await t.step("the URL origin is ignored and a bare path is accepted", async () => {
    const response = await fake.fetch("/v2/items/19721");
    assert.equal(response.status, 200);
    assert.deepEqual(asRecord(await response.json()).name, "Glob of Ectoplasm");
  });
});

Deno.test("fake.fetch() applies the ids= rules: 200, 206, 404 and the 200-id limit", async (t) => {
  await t.step("all found is 200 with X-Result-Total the whole collection", async () => {
    const got = await get(fake, "/v2/items?ids=19721,19675");
    assert.equal(got.status, 200);
    assert.deepEqual(idsOf(got.body), [19675, 19721]);
    assert.equal(got.headers.get("x-result-count"), "2");
    assert.equal(got.headers.get("x-result-total"), String(itemCount));
  });
  await t.step("some unknown is 206 with only the found records", async () => {
    const got = await get(fake, "/v2/items?ids=19721,1,2,abc");
    assert.equal(got.status, 206);
    assert.deepEqual(idsOf(got.body), [19721]);
    assert.equal(got.headers.get("x-result-count"), "1");
    assert.equal(got.headers.get("x-result-total"), String(itemCount));
  });
  await t.step("all unknown, and an empty list, are 404", async () => {
    for (const path of ["/v2/items?ids=1,2,3", "/v2/items?ids=", "/v2/items?ids=,"]) {
      const got = await get(fake, path);
      assert.equal(got.status, 404, path);
      assert.equal(got.text, errorBody("all ids provided are invalid"), path);
    }
  });
  await t.step("duplicates collapse and records come in collection order", async () => {
    const got = await get(fake, "/v2/items?ids=30704,19721,30704,19721");
    assert.equal(got.status, 200);
    assert.deepEqual(idsOf(got.body), [19721, 30704]);
  });
  await t.step("200 ids pass, 201 are 400 with the upstream text", async () => {
    const ids = world.fillerItemIds.slice(0, 201);
    const ok = await get(fake, `/v2/items?ids=${ids.slice(0, 200).join(",")}`);
    assert.equal(ok.status, 200);
    assert.equal(asArray(ok.body).length, 200);
    const tooMany = await get(fake, `/v2/items?ids=${ids.join(",")}`);
    assert.equal(tooMany.status, 400);
    assert.equal(
      tooMany.text,
      errorBody("id list too long; this endpoint is limited to 200 ids at once"),
    );
  });
});

Deno.test("fake.fetch() allows ids=all on materials, currencies and characters only", async (t) => {
  await t.step("materials and currencies expand every record", async () => {
    const materials = await get(fake, "/v2/materials?ids=all");
    assert.equal(materials.status, 200);
    assert.deepEqual(idsOf(materials.body), [5, 6, 29, 30, 37, 38, 46, 49, 50]);
    assert.equal(materials.headers.get("x-result-count"), "9");
    const currencies = await get(fake, "/v2/currencies?ids=all");
    assert.equal(currencies.status, 200);
    assert.equal(asArray(currencies.body).length, world.currencies.size);
  });
  await t.step("characters expand every character", async () => {
    const got = await get(fake, "/v2/characters?ids=all", bearer(TEST_KEYS.full));
    assert.equal(got.status, 200);
    assert.deepEqual(
      asArray(got.body).map((record) => asRecord(record).name),
      [...world.characters.keys()],
    );
  });
  await t.step("items, recipes and prices refuse it with 400", async () => {
    for (const path of ["/v2/items", "/v2/recipes", "/v2/commerce/prices"]) {
      const got = await get(fake, `${path}?ids=all`);
      assert.equal(got.status, 400, path);
      assert.equal(got.text, errorBody("ids=all is not supported by this endpoint"));
    }
  });
});

Deno.test("fake.fetch() pages with X-Page-* and Link headers", async (t) => {
  await t.step("page 0 uses the default size of 50", async () => {
    const got = await get(fake, "/v2/items?page=0");
    assert.equal(got.status, 200);
    assert.deepEqual(idsOf(got.body), [...world.items.keys()].slice(0, 50));
    assert.equal(got.headers.get("x-page-size"), "50");
    assert.equal(got.headers.get("x-page-total"), String(Math.ceil(itemCount / 50)));
    assert.equal(got.headers.get("x-result-count"), "50");
    assert.equal(got.headers.get("x-result-total"), String(itemCount));
    const last = Math.ceil(itemCount / 50) - 1;
    assert.equal(
      got.headers.get("link"),
      "</v2/items?page=1&page_size=50>; rel=next, </v2/items?page=0&page_size=50>; rel=self, " +
        `</v2/items?page=0&page_size=50>; rel=first, </v2/items?page=${last}&page_size=50>; rel=last`,
    );
  });
  await t.step("a middle page links previous and next; the last one has no next", async () => {
    const middle = await get(fake, "/v2/materials?page=1&page_size=3");
    assert.deepEqual(idsOf(middle.body), [30, 37, 38]);
    assert.equal(
      middle.headers.get("link"),
      "</v2/materials?page=0&page_size=3>; rel=previous, </v2/materials?page=2&page_size=3>; rel=next, " +
        "</v2/materials?page=1&page_size=3>; rel=self, </v2/materials?page=0&page_size=3>; rel=first, " +
        "</v2/materials?page=2&page_size=3>; rel=last",
    );
    const last = await get(fake, "/v2/materials?page=1&page_size=5");
    assert.deepEqual(idsOf(last.body), [38, 46, 49, 50]);
    assert.equal(last.headers.get("x-page-total"), "2");
    assert.equal(last.headers.get("x-result-count"), "4");
    assert.doesNotMatch(last.headers.get("link") ?? "", /rel=next/u);
  });
  await t.step("a page past the end is 400 naming the valid range", async () => {
    const got = await get(fake, "/v2/materials?page=2&page_size=5");
    assert.equal(got.status, 400);
    assert.equal(got.text, errorBody("page out of range. Use page values 0 - 1."));
    const negative = await get(fake, "/v2/materials?page=-1");
    assert.equal(negative.text, errorBody("page out of range. Use page values 0 - 0."));
  });
  await t.step("a page_size outside 1-200 is 400", async () => {
    for (const size of ["0", "201", "x"]) {
      const got = await get(fake, `/v2/items?page=0&page_size=${size}`);
      assert.equal(got.status, 400, size);
      assert.equal(got.text, errorBody("page_size out of range. Use page_size values 1 - 200."));
    }
    const max = await get(fake, "/v2/items?page=0&page_size=200");
    assert.equal(asArray(max.body).length, 200);
  });
});

Deno.test("fake.fetch() prices only tradeable items, with the bulk rules", async (t) => {
  await t.step("the bare list is the trading-post catalogue", async () => {
    const got = await get(fake, "/v2/commerce/prices");
    assert.deepEqual(got.body, [...world.prices.keys()]);
    assert.equal(got.headers.get("cache-control"), "public, max-age=60");
    assert.equal(got.headers.get("content-language"), null);
  });
  await t.step("only non-tradeable ids is 404; a mix is 206", async () => {
    const none = await get(fake, "/v2/commerce/prices?ids=19675,19674");
    assert.equal(none.status, 404);
    assert.equal(none.text, errorBody("all ids provided are invalid"));
    const mixed = await get(fake, "/v2/commerce/prices?ids=19675,19721");
    assert.equal(mixed.status, 206);
    assert.deepEqual(mixed.body, [world.prices.get(19721)]);
    const single = await get(fake, `/v2/commerce/prices/${WELL_KNOWN.mysticClover}`);
    assert.equal(single.status, 404);
    assert.equal(single.text, errorBody("no such id"));
  });
});

Deno.test("fake.fetch() answers unknown paths 404 and other methods 405", async () => {
  const unknown = await get(fake, "/v2/dyes");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.text, errorBody("no such endpoint"));
  const deeper = await get(fake, "/v2/account/123");
  assert.equal(deeper.status, 404);
  const post = await get(fake, "/v2/items", { method: "POST" });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET");
});
