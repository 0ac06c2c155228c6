import assert from "node:assert/strict";
import {
  ConfigError,
  generateRandomToken,
  isLoopbackHostname,
  parseConfig,
} from "../src/config.ts";

function envOf(values: Record<string, string>): (name: string) => string | undefined {
  return (name) => values[name];
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

Deno.test("parseConfig() applies the contract's defaults in start mode", () => {
  const config = parseConfig(envOf({ MCP_AUTH_TOKEN: "secret-token" }), { mode: "start" });
  assert.equal(config.authToken, "secret-token");
  assert.equal(config.authTokenGenerated, false);
  assert.equal(config.port, 8000);
  assert.equal(config.hostname, "0.0.0.0");
  assert.equal(config.loopback, false);
  assert.deepEqual(config.allowedOrigins, []);
  assert.equal(config.allowedHosts, undefined);
  assert.equal(config.gw2ApiBase, "https://api.guildwars2.com");
  assert.equal(config.kvPath, undefined);
  assert.equal(config.rateBurst, 300);
  assert.equal(config.ratePerSec, 5);
  assert.equal(config.logLevel, "info");
});

Deno.test("parseConfig() in dev mode binds loopback and restricts Host and Origin", () => {
  const config = parseConfig(envOf({}), { mode: "dev", generateToken: () => "generated" });
  assert.equal(config.hostname, "127.0.0.1");
  assert.equal(config.loopback, true);
  assert.equal(config.authToken, "generated");
  assert.equal(config.authTokenGenerated, true);
  assert.deepEqual(config.allowedOrigins, [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
  ]);
  assert.deepEqual(config.allowedHosts, ["localhost", "127.0.0.1", "[::1]"]);
});

Deno.test("parseConfig() reads the listen address from PRIORY_HOSTNAME and ignores HOSTNAME", () => {
  // What Docker and Kubernetes export: the container or pod name.
  const pod = { MCP_AUTH_TOKEN: "t", HOSTNAME: "priory-7d9f8c6b5-x2k4q" };
  assert.equal(parseConfig(envOf(pod), { mode: "start" }).hostname, "0.0.0.0");
  const bound = parseConfig(envOf({ ...pod, PRIORY_HOSTNAME: "127.0.0.1" }), { mode: "start" });
  assert.equal(bound.hostname, "127.0.0.1");
  assert.equal(bound.loopback, true);
});

Deno.test("parseConfig() refuses to start without MCP_AUTH_TOKEN, naming it", async (t) => {
  for (const [label, env] of [["unset", {}], ["blank", { MCP_AUTH_TOKEN: "   " }]] as const) {
    await t.step(label, () => {
      const error = configError(() => parseConfig(envOf(env), { mode: "start" }));
      assert.equal(error.variable, "MCP_AUTH_TOKEN");
      assert.match(error.message, /MCP_AUTH_TOKEN/);
      assert.match(error.message, new RegExp(label));
    });
  }
});

Deno.test("parseConfig() rejects malformed values with the variable named", async (t) => {
  const cases: [string, Record<string, string>][] = [
    ["PORT", { PORT: "eighty" }],
    ["PORT", { PORT: "70000" }],
    ["PORT", { PORT: "-1" }],
    ["PRIORY_HOSTNAME", { PRIORY_HOSTNAME: "my-laptop" }],
    ["GW2_RATE_PER_SEC", { GW2_RATE_PER_SEC: "0" }],
    ["GW2_RATE_PER_SEC", { GW2_RATE_PER_SEC: "fast" }],
    ["GW2_RATE_BURST", { GW2_RATE_BURST: "2.5" }],
    ["GW2_API_BASE", { GW2_API_BASE: "not a url" }],
    ["GW2_API_BASE", { GW2_API_BASE: "ftp://example.com" }],
    ["GW2_API_BASE", { GW2_API_BASE: "https://user:pw@example.com" }],
    ["GW2_API_BASE", { GW2_API_BASE: "https://api.guildwars2.com/v2" }],
    ["GW2_API_BASE", { GW2_API_BASE: "http://127.0.0.1:8787/v2/" }],
    ["LOG_LEVEL", { LOG_LEVEL: "verbose" }],
    ["MCP_ALLOWED_ORIGINS", { MCP_ALLOWED_ORIGINS: "https://ok.example,example.com" }],
    ["MCP_ALLOWED_ORIGINS", { MCP_ALLOWED_ORIGINS: "https://ok.example/path" }],
    ["MCP_ALLOWED_HOSTS", { MCP_ALLOWED_HOSTS: "bad host" }],
  ];
  for (const [variable, env] of cases) {
    await t.step(`${variable}=${Object.values(env)[0]}`, () => {
      const error = configError(() =>
        parseConfig(envOf({ MCP_AUTH_TOKEN: "t", ...env }), { mode: "start" })
      );
      assert.equal(error.variable, variable);
      assert.match(error.message, new RegExp(`"${variable}"`));
    });
  }
});

Deno.test("parseConfig() parses explicit values", () => {
  const config = parseConfig(
    envOf({
      MCP_AUTH_TOKEN: "t",
      PORT: "9000",
      PRIORY_HOSTNAME: "::",
      MCP_ALLOWED_ORIGINS: "https://app.example, http://localhost:*",
      MCP_ALLOWED_HOSTS: "mcp.example.com,MCP.example.com:443",
      GW2_API_BASE: "http://127.0.0.1:8787/",
      PRIORY_KV_PATH: ":memory:",
      GW2_RATE_BURST: "50",
      GW2_RATE_PER_SEC: "2.5",
      LOG_LEVEL: "DEBUG",
    }),
    { mode: "start" },
  );
  assert.equal(config.port, 9000);
  assert.equal(config.hostname, "::");
  assert.deepEqual(config.allowedOrigins, ["https://app.example", "http://localhost:*"]);
  assert.deepEqual(config.allowedHosts, ["mcp.example.com", "mcp.example.com:443"]);
  assert.equal(config.gw2ApiBase, "http://127.0.0.1:8787");
  assert.equal(config.kvPath, ":memory:");
  assert.equal(config.rateBurst, 50);
  assert.equal(config.ratePerSec, 2.5);
  assert.equal(config.logLevel, "debug");
});

Deno.test("isLoopbackHostname() recognises loopback binds only", () => {
  for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) {
    assert.equal(isLoopbackHostname(host), true, host);
  }
  for (const host of ["0.0.0.0", "::", "10.0.0.1", "192.168.1.2"]) {
    assert.equal(isLoopbackHostname(host), false, host);
  }
});

Deno.test("generateRandomToken() is 32 random bytes in unpadded base64url", () => {
  const tokens = new Set(Array.from({ length: 20 }, () => generateRandomToken()));
  assert.equal(tokens.size, 20);
  for (const token of tokens) assert.match(token, /^[A-Za-z0-9_-]{43}$/);
});
