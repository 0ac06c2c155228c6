/**
 * `gw2_api`'s gate (pure): a path is read only when the API's own list names it, and nothing but
 * the API's host, its listed paths and the tool's parameters ever reaches upstream. Each attack
 * is sent and must be refused with its reason.
 */
import assert from "node:assert/strict";
import { type ApiCheck, checkApiPath } from "../../src/gw2/api_path.ts";
import { ApiListSchema } from "../../src/gw2/schemas_api.ts";
import { API_LIST } from "../fake_gw2/api_list.ts";

const routes = ApiListSchema.parse(API_LIST).routes;

function refused(check: ApiCheck, pattern: RegExp): void {
  assert.equal(check.ok, false, JSON.stringify(check));
  if (!check.ok) assert.match(check.reason, pattern);
}

Deno.test("gw2_api path: a listed public path passes with the tool's parameters only", () => {
  const check = checkApiPath("/v2/skins", { ids: [1, 2], lang: "de" }, routes);
  assert.deepEqual(check, {
    ok: true,
    request: {
      path: "/v2/skins",
      route: "/v2/skins",
      auth: false,
      query: { ids: "1,2", lang: "de" },
    },
  });
  const paged = checkApiPath("/v2/skins", { page: 3 }, routes);
  assert.deepEqual(paged.ok && paged.request.query, { page: "3", page_size: "50", lang: "en" });
  const gems = checkApiPath("/v2/commerce/exchange/gems", { quantity: 400 }, routes);
  assert.deepEqual(gems.ok && gems.request.query, { quantity: "400" });
});

Deno.test("gw2_api path: an authenticated route says so; lang only on localized routes", () => {
  const check = checkApiPath("/v2/account/mastery/points", { lang: "fr" }, routes);
  assert.ok(check.ok);
  assert.equal(check.request.auth, true);
  assert.deepEqual(check.request.query, {});
});

Deno.test("gw2_api path: :id segments are parameters, encoded; a literal route wins", () => {
  const guild = checkApiPath("/v2/guild/4BBB52AA-D768-4FC6-8EDE-C299F2822F0F", {}, routes);
  assert.ok(guild.ok);
  assert.equal(guild.request.route, "/v2/guild/:id");
  assert.equal(guild.request.auth, false);
  const search = checkApiPath("/v2/guild/search", {}, routes);
  assert.equal(search.ok && search.request.route, "/v2/guild/search");
  const log = checkApiPath("/v2/guild/ABC/log", {}, routes);
  assert.equal(log.ok && log.request.auth, true);
  for (const name of ["Zo\u00eb Ironfist", "Zo%C3%AB%20Ironfist"]) {
    const bags = checkApiPath(`/v2/characters/${name}/inventory`, {}, routes);
    assert.equal(bags.ok && bags.request.path, "/v2/characters/Zo%C3%AB%20Ironfist/inventory");
  }
  // A parameter cannot smuggle a separator or a query (refused: see the parameter attacks).
  refused(checkApiPath("/v2/guild/a%3Fb%2Fc", {}, routes), /in a parameter/);
});

Deno.test("gw2_api path: a parameter naming another path to an upstream that decodes first is refused", () => {
  // Encoded, each would stay inside its segment here; a proxy that decodes %2F (or %25, then
  // %2F) before routing would read another path: /v2/tokeninfo with the player's key.
  for (
    const path of [
      "/v2/characters/..%2Ftokeninfo%3F/inventory",
      "/v2/characters/..%2F..%2Fv2%2Ftokeninfo/inventory",
      "/v2/characters/..%5Ctokeninfo/inventory",
      "/v2/guild/%252e%252e%252ftokeninfo/log",
      "/v2/guild/x%23/log",
      "/v2/guild/%C0%AE%C0%AE/log", // an overlong UTF-8 dot, not decodable: kept as typed
      "/v2/guild/a%00b/log",
      "/v2/guild/a%0d%0aHost:%20evil/log",
    ]
  ) {
    refused(checkApiPath(path, {}, routes), /in a parameter/);
  }
  refused(checkApiPath("/v2/guild/%2E%2E/log", {}, routes), /\. or \.\. segment/);
});

Deno.test("gw2_api path: look-alikes stay inside their segment or name no route: unicode dots, @, ;, other letters", () => {
  const sent = (path: string) => {
    const check = checkApiPath(path, {}, routes);
    assert.ok(check.ok, JSON.stringify(check));
    return check.request.path;
  };
  // Dots of other scripts are letters to every URL parser: encoded, inside the guild's segment.
  assert.equal(sent("/v2/guild/\u2024\u2024/log"), "/v2/guild/%E2%80%A4%E2%80%A4/log");
  assert.equal(sent("/v2/guild/\uff0e\uff0e/log"), "/v2/guild/%EF%BC%8E%EF%BC%8E/log");
  // A userinfo or a matrix parameter in a segment is only text there.
  assert.equal(sent("/v2/guild/x@evil.example/log"), "/v2/guild/x%40evil.example/log");
  assert.equal(
    sent("/v2/guild/a;access_token=x/log"),
    "/v2/guild/a%3Baccess_token%3Dx/log",
  );
  for (
    const path of [
      "/v2/@evil.example",
      "/v2/account;access_token=x",
      "/v2/\uff41ccount/bank", // a fullwidth a
      "/v2/ac\u0441ount/bank", // a Cyrillic es
      "/v2/%61ccount/bank", // a literal segment is compared as typed
      "/v2/TokenInfo",
      "/v2/%74okeninfo",
      "/v2/tokeninfo/",
    ]
  ) {
    assert.equal(checkApiPath(path, {}, routes).ok, false, path);
  }
  refused(checkApiPath(" /v2/items", {}, routes), /does not start with \/v2\//);
  refused(checkApiPath("/v2/items\t", {}, routes), /control character/);
});

Deno.test("gw2_api path: a path the list does not name is refused, naming it", () => {
  refused(
    checkApiPath("/v2/secrets", {}, routes),
    /^the path "\/v2\/secrets" is not an endpoint .* \/v2\.json/,
  );
  refused(checkApiPath("/v2/items/19721", {}, routes), /pass ids instead of \/ID/);
  refused(checkApiPath("/v2/account/bank/extra", {}, routes), /not an endpoint/);
  refused(checkApiPath("/v1/items", {}, routes), /does not start with \/v2\//);
  refused(checkApiPath("/v2", {}, routes), /does not start with \/v2\//);
  refused(checkApiPath("/v2/Account", {}, routes), /not an endpoint/);
});

Deno.test("gw2_api path: traversal, another host and query strings are refused", () => {
  refused(checkApiPath("/v2/../x", {}, routes), /\. or \.\. segment/);
  refused(checkApiPath("/v2/items/..", {}, routes), /\. or \.\. segment/);
  refused(checkApiPath("/v2/guild/%2e%2e/log", {}, routes), /\. or \.\. segment/);
  refused(checkApiPath("/v2/./items", {}, routes), /\. or \.\. segment/);
  refused(checkApiPath("//evil.example/v2/items", {}, routes), /does not start with \/v2\//);
  refused(checkApiPath("/v2//evil.example/items", {}, routes), /contains \/\//);
  refused(checkApiPath("https://evil.example/v2/items", {}, routes), /does not start/);
  refused(checkApiPath("/v2/items\\..\\x", {}, routes), /backslash/);
  refused(checkApiPath("/v2/items\n", {}, routes), /control character/);
  refused(checkApiPath("/v2/items/", {}, routes), /ends with \//);
  refused(checkApiPath(`/v2/${"a".repeat(300)}`, {}, routes), /longer than 200/);
});

Deno.test("gw2_api path: the caller's access_token is never taken, nor any other query", () => {
  refused(
    checkApiPath("/v2/account?access_token=ABCD-1234", {}, routes),
    /query string: pass ids, page, lang, quantity/,
  );
  refused(checkApiPath("/v2/items?ids=1", {}, routes), /query string/);
  refused(checkApiPath("/v2/items#x", {}, routes), /query string/);
});

Deno.test("gw2_api path: routes handing out a credential, switched off, or misused parameters", () => {
  refused(checkApiPath("/v2/tokeninfo", {}, routes), /\/v2\/tokeninfo is not read: .*key/);
  refused(checkApiPath("/v2/createsubtoken", {}, routes), /creates a new key/);
  refused(checkApiPath("/v2/achievements/daily", {}, routes), /switched off/);
  refused(checkApiPath("/v2/characters/x/specializations", {}, routes), /switched off/);
  refused(checkApiPath("/v2/skins", { ids: [1], page: 0 }, routes), /ids or page/);
  refused(checkApiPath("/v2/skins", { quantity: 5 }, routes), /quantity is read only by/);
});
