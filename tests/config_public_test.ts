import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "../src/config.ts";

const SECRET = "a-secret-of-at-least-thirty-two-chars";

function parse(env: Record<string, string | undefined>, mode: "start" | "dev" = "start") {
  return parseConfig((name) => env[name], { mode, generateToken: () => "generated-value" });
}

function refusal(env: Record<string, string | undefined>, mode: "start" | "dev" = "start") {
  try {
    parse(env, mode);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

Deno.test("PRIORY_AUTH: token by default, oauth for the public mode, anything else refused", () => {
  const token = parse({ MCP_AUTH_TOKEN: "t" });
  assert.equal(token.auth, "token");
  assert.equal(token.publicMode, undefined);
  const error = refusal({ MCP_AUTH_TOKEN: "t", PRIORY_AUTH: "saml" });
  assert.equal(error.variable, "PRIORY_AUTH");
  assert.match(error.message, /expected token or oauth, got "saml"/);
});

Deno.test("public mode: MCP_AUTH_TOKEN optional, URL and secret read, rate defaults", () => {
  const config = parse({
    PRIORY_AUTH: "oauth",
    PRIORY_PUBLIC_URL: "https://priory.example.com/",
    PRIORY_SECRET: SECRET,
  });
  assert.equal(config.auth, "oauth");
  assert.equal(config.authToken, "", "no static token unless one is set");
  assert.deepEqual(config.publicMode, {
    publicUrl: "https://priory.example.com",
    secret: SECRET,
    secretGenerated: false,
    callsBurst: 30,
    callsPerMinute: 60,
    callsAtOnce: 2,
  });
  const loopback = parse({
    PRIORY_AUTH: "OAUTH",
    PRIORY_PUBLIC_URL: "http://127.0.0.1:8000",
    PRIORY_SECRET: SECRET,
    MCP_AUTH_TOKEN: "operator",
    PRIORY_GRANT_CALLS_BURST: "5",
    PRIORY_GRANT_CALLS_PER_MINUTE: "12",
  });
  assert.equal(loopback.authToken, "operator");
  assert.equal(loopback.publicMode?.publicUrl, "http://127.0.0.1:8000");
  assert.equal(loopback.publicMode?.callsBurst, 5);
  assert.equal(loopback.publicMode?.callsPerMinute, 12);
  assert.equal(loopback.publicMode?.clientAddressHeader, undefined);
  const proxied = parse({
    PRIORY_AUTH: "oauth",
    PRIORY_PUBLIC_URL: "https://priory.example.com",
    PRIORY_SECRET: SECRET,
    PRIORY_CLIENT_ADDRESS_HEADER: " X-Forwarded-For ",
  });
  assert.equal(proxied.publicMode?.clientAddressHeader, "x-forwarded-for");
});

Deno.test("public mode: PRIORY_CLIENT_ADDRESS_HEADER must be a header name", () => {
  for (const value of ["X Forwarded For", "x-forwarded-for:", "a,b", "\u00e9"]) {
    const error = refusal({
      PRIORY_AUTH: "oauth",
      PRIORY_PUBLIC_URL: "https://priory.example.com",
      PRIORY_SECRET: SECRET,
      PRIORY_CLIENT_ADDRESS_HEADER: value,
    });
    assert.equal(error.variable, "PRIORY_CLIENT_ADDRESS_HEADER", value);
    assert.match(error.message, /expected a header name/);
  }
});

Deno.test("public mode: boot fails naming PRIORY_PUBLIC_URL or PRIORY_SECRET when missing or malformed", () => {
  const base = {
    PRIORY_AUTH: "oauth",
    PRIORY_SECRET: SECRET,
    PRIORY_PUBLIC_URL: "https://a.example",
  };
  for (
    const [url, message] of [
      [undefined, /is unset/],
      ["not a url", /is not a URL/],
      ["http://priory.example.com", /must be https/],
      ["https://priory.example.com/mcp", /must be an origin/],
      ["https://priory.example.com?x=1", /must be an origin/],
      ["https://user:pw@priory.example.com", /must be an origin/],
      ["ftp://priory.example.com", /must be https/],
    ] as const
  ) {
    const error = refusal({ ...base, PRIORY_PUBLIC_URL: url });
    assert.equal(error.variable, "PRIORY_PUBLIC_URL", String(url));
    assert.match(error.message, message);
  }
  for (
    const [secret, message] of [[undefined, /is unset/], ["short", /only 5 characters/]] as const
  ) {
    const error = refusal({ ...base, PRIORY_SECRET: secret });
    assert.equal(error.variable, "PRIORY_SECRET");
    assert.match(error.message, message);
    assert.ok(!error.message.includes("short"), "the message never repeats the secret");
  }
  assert.equal(
    refusal({ ...base, PRIORY_GRANT_CALLS_BURST: "0" }).variable,
    "PRIORY_GRANT_CALLS_BURST",
  );
});

Deno.test("public mode in dev: the loopback URL and a generated secret stand in for unset ones", () => {
  const config = parse({ PRIORY_AUTH: "oauth", PORT: "8123" }, "dev");
  assert.equal(config.publicMode?.publicUrl, "http://127.0.0.1:8123");
  assert.equal(config.publicMode?.secret, "generated-value");
  assert.equal(config.publicMode?.secretGenerated, true);
  const flagged = parseConfig(() => undefined, { mode: "dev", public: true });
  assert.equal(flagged.auth, "oauth");
});
