/**
 * The public server's page and sign-in settings: who runs it (`PRIORY_OPERATOR`,
 * `PRIORY_OPERATOR_URL`) and the gw2.me client (`PRIORY_GW2ME_*`), each optional, each failing
 * at boot - naming the variable - when set wrongly or only in part.
 */

import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "../src/config.ts";

const PUBLIC = {
  PRIORY_AUTH: "oauth",
  PRIORY_PUBLIC_URL: "https://priory.example.com",
  PRIORY_SECRET: "a-secret-of-at-least-thirty-two-chars",
};

function parse(env: Record<string, string>) {
  return parseConfig((name) => ({ ...PUBLIC, ...env })[name], { mode: "start" });
}

function refusal(env: Record<string, string>): ConfigError {
  try {
    parse(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

Deno.test("operator: absent unless set; a name, a contact page, or both", () => {
  assert.equal(parse({}).publicMode?.operator, undefined);
  assert.deepEqual(parse({ PRIORY_OPERATOR: "  Quaggan Guild  " }).publicMode?.operator, {
    name: "Quaggan Guild",
  });
  assert.deepEqual(
    parse({ PRIORY_OPERATOR_URL: "https://example.com/privacy" }).publicMode?.operator,
    { url: "https://example.com/privacy" },
  );
  assert.deepEqual(
    parse({ PRIORY_OPERATOR: "Q", PRIORY_OPERATOR_URL: "http://127.0.0.1:9000/contact" })
      .publicMode?.operator,
    { name: "Q", url: "http://127.0.0.1:9000/contact" },
  );
});

Deno.test("operator: a URL that is not https (or http on loopback), or a name over a line, stops the boot", () => {
  for (
    const url of [
      "http://example.com/privacy",
      "javascript:alert(1)",
      "not a url",
      "https://user:pw@example.com/",
      "https://example.com/?q=1",
    ]
  ) {
    const error = refusal({ PRIORY_OPERATOR_URL: url });
    assert.equal(error.variable, "PRIORY_OPERATOR_URL", url);
  }
  assert.equal(refusal({ PRIORY_OPERATOR: "a\nb" }).variable, "PRIORY_OPERATOR");
  assert.equal(refusal({ PRIORY_OPERATOR: "x".repeat(101) }).variable, "PRIORY_OPERATOR");
});

Deno.test("gw2.me: off unless the id and secret are set; the URL defaults to https://gw2.me", () => {
  assert.equal(parse({}).publicMode?.gw2me, undefined);
  assert.deepEqual(
    parse({ PRIORY_GW2ME_CLIENT_ID: "id-1", PRIORY_GW2ME_CLIENT_SECRET: "s3cret" }).publicMode
      ?.gw2me,
    { url: "https://gw2.me", clientId: "id-1", clientSecret: "s3cret" },
  );
  assert.equal(
    parse({
      PRIORY_GW2ME_CLIENT_ID: "id-1",
      PRIORY_GW2ME_CLIENT_SECRET: "s3cret",
      PRIORY_GW2ME_URL: "http://127.0.0.1:8787/",
    }).publicMode?.gw2me?.url,
    "http://127.0.0.1:8787",
  );
});

Deno.test("gw2.me: half a configuration, or a malformed value, stops the boot naming the variable", () => {
  assert.equal(refusal({ PRIORY_GW2ME_CLIENT_ID: "id" }).variable, "PRIORY_GW2ME_CLIENT_SECRET");
  assert.equal(refusal({ PRIORY_GW2ME_CLIENT_SECRET: "s" }).variable, "PRIORY_GW2ME_CLIENT_ID");
  assert.equal(refusal({ PRIORY_GW2ME_URL: "https://gw2.me" }).variable, "PRIORY_GW2ME_CLIENT_ID");
  const both = { PRIORY_GW2ME_CLIENT_ID: "id", PRIORY_GW2ME_CLIENT_SECRET: "s" };
  for (const url of ["http://gw2.me", "https://gw2.me/path", "gw2.me"]) {
    assert.equal(refusal({ ...both, PRIORY_GW2ME_URL: url }).variable, "PRIORY_GW2ME_URL", url);
  }
  const spaced = refusal({ ...both, PRIORY_GW2ME_CLIENT_SECRET: "two words" });
  assert.equal(spaced.variable, "PRIORY_GW2ME_CLIENT_SECRET");
  assert.doesNotMatch(spaced.message, /two words/, "the secret is never echoed");
});

Deno.test("the operator and gw2.me settings belong to the public mode: the token mode ignores them", () => {
  const config = parseConfig(
    (name) => ({ MCP_AUTH_TOKEN: "t", PRIORY_GW2ME_CLIENT_ID: "id" })[name],
    { mode: "start" },
  );
  assert.equal(config.publicMode, undefined);
});
