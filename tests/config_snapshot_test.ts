import assert from "node:assert/strict";
import { ConfigError, DEFAULT_SNAPSHOT_MINUTES, parseConfig } from "../src/config.ts";

function parse(value: string | undefined) {
  const env: Record<string, string | undefined> = {
    MCP_AUTH_TOKEN: "token-for-tests",
    PRIORY_SNAPSHOT_MINUTES: value,
  };
  return parseConfig((name) => env[name], { mode: "start" });
}

Deno.test("PRIORY_SNAPSHOT_MINUTES: 5 by default, any whole number of minutes from 1 to 60", () => {
  assert.equal(DEFAULT_SNAPSHOT_MINUTES, 5);
  assert.equal(parse(undefined).snapshotMinutes, 5);
  assert.equal(parse(" ").snapshotMinutes, 5);
  assert.equal(parse("1").snapshotMinutes, 1);
  assert.equal(parse("7").snapshotMinutes, 7);
  assert.equal(parse(" 60 ").snapshotMinutes, 60);
});

Deno.test("PRIORY_SNAPSHOT_MINUTES: anything else stops the server naming the variable and the range", () => {
  for (const value of ["0", "61", "2.5", "-5", "five", "005"]) {
    assert.throws(() => parse(value), (error) => {
      assert.ok(error instanceof ConfigError, value);
      assert.equal(error.variable, "PRIORY_SNAPSHOT_MINUTES");
      assert.match(error.message, /from 1 to 60/);
      return true;
    }, value);
  }
});
