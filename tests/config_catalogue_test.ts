import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "../src/config.ts";

function parse(value: string | undefined) {
  const env: Record<string, string | undefined> = {
    MCP_AUTH_TOKEN: "token-for-tests",
    PRIORY_CATALOGUE: value,
  };
  return parseConfig((name) => env[name], { mode: "start" });
}

Deno.test("PRIORY_CATALOGUE: on by default, off turns the crawl off", () => {
  assert.equal(parse(undefined).catalogue, true);
  assert.equal(parse(" ").catalogue, true);
  assert.equal(parse("on").catalogue, true);
  assert.equal(parse("OFF").catalogue, false);
});

Deno.test("PRIORY_CATALOGUE: anything else stops the server naming the variable", () => {
  assert.throws(() => parse("no"), (error) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.variable, "PRIORY_CATALOGUE");
    assert.match(error.message, /expected on or off, got "no"/);
    return true;
  });
});
