/** Client metadata from registration and from a metadata document, and names made safe to show. */

import assert from "node:assert/strict";
import {
  cleanName,
  isMetadataDocumentUrl,
  readMetadataDocument,
  readRegistration,
} from "../../src/auth/client_metadata.ts";

Deno.test("readRegistration() keeps the redirect URIs and the name; answers confidential methods as none", () => {
  const read = readRegistration({
    redirect_uris: ["http://127.0.0.1:33418/", "http://127.0.0.1:33418/"],
    client_name: "  Visual   Studio Code ",
    token_endpoint_auth_method: "client_secret_post",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    logo_uri: "https://evil.example/logo.png",
  });
  assert.deepEqual(read, {
    ok: true,
    client: { name: "Visual Studio Code", redirectUris: ["http://127.0.0.1:33418/"] },
  });
});

Deno.test("readRegistration() refuses what cannot be a public client's metadata", () => {
  const cases: [unknown, string][] = [
    [[], "invalid_client_metadata"],
    [{ client_name: "x" }, "invalid_redirect_uri"],
    [{ redirect_uris: [] }, "invalid_redirect_uri"],
    [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
    [{ redirect_uris: [42] }, "invalid_redirect_uri"],
    [
      { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) },
      "invalid_redirect_uri",
    ],
    [
      { redirect_uris: ["https://a.example/cb"], grant_types: ["client_credentials"] },
      "invalid_client_metadata",
    ],
    [
      { redirect_uris: ["https://a.example/cb"], response_types: ["token"] },
      "invalid_client_metadata",
    ],
    [
      { redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "private_key_jwt" },
      "invalid_client_metadata",
    ],
  ];
  for (const [body, error] of cases) {
    const read = readRegistration(body);
    assert.equal(read.ok, false, JSON.stringify(body));
    assert.equal(read.ok ? "" : read.error, error, JSON.stringify(body));
  }
});

Deno.test("readMetadataDocument() binds the document to its URL and to public clients", () => {
  const url = "https://claude.ai/oauth/mcp-oauth-client-metadata";
  const document = {
    client_id: url,
    client_name: "Claude",
    redirect_uris: ["https://claude.ai/api/mcp/auth_callback"],
    token_endpoint_auth_method: "none",
  };
  assert.deepEqual(readMetadataDocument(url, document), {
    ok: true,
    client: { name: "Claude", redirectUris: ["https://claude.ai/api/mcp/auth_callback"] },
  });
  assert.equal(
    readMetadataDocument(`${url}-other`, document).ok,
    false,
    "client_id must be the URL",
  );
  assert.equal(
    readMetadataDocument(url, { ...document, token_endpoint_auth_method: "client_secret_basic" })
      .ok,
    false,
  );
  assert.equal(readMetadataDocument(url, "[]").ok, false);
});

Deno.test("isMetadataDocumentUrl() takes https URLs with a path, and nothing looser", () => {
  assert.equal(isMetadataDocumentUrl("https://claude.ai/oauth/mcp-oauth-client-metadata"), true);
  for (
    const id of [
      "http://claude.ai/oauth/metadata",
      "https://claude.ai/",
      "https://claude.ai",
      "https://claude.ai/a/../b",
      "https://claude.ai:8443/oauth/metadata",
      "https://claude.ai:22/oauth/metadata",
      "https://user@claude.ai/meta",
      "https://claude.ai/meta#x",
      "pcl.abc.def",
      `https://a.example/${"x".repeat(500)}`,
    ]
  ) assert.equal(isMetadataDocumentUrl(id), false, id);
});

Deno.test("cleanName() removes controls and bidirectional overrides, and bounds the length", () => {
  assert.equal(cleanName("Evil\u202Eppa\u0000 name\n"), "Evilppa name");
  assert.equal(cleanName("   "), undefined);
  assert.equal(cleanName(42), undefined);
  const long = cleanName("a".repeat(200));
  assert.equal([...(long ?? "")].length, 80);
  assert.ok(long?.endsWith("…"));
});
