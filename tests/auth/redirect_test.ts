/** Redirect URIs: the scheme allowlist at registration, and what the page and the answer do. */

import assert from "node:assert/strict";
import {
  checkRedirectUri,
  formActionSource,
  isLocalRedirect,
  isWebRedirect,
  redirectTarget,
  withParams,
} from "../../src/auth/redirect.ts";

Deno.test("checkRedirectUri() accepts https, loopback http and apps' own schemes", () => {
  for (
    const uri of [
      "https://claude.ai/api/mcp/auth_callback",
      "https://chatgpt.com/connector/oauth/abc123",
      "https://vscode.dev/redirect",
      "http://127.0.0.1:33418/",
      "http://localhost:45123/oauth/callback",
      "http://[::1]:8080/cb",
      "cursor://anysphere.cursor-mcp/oauth/callback",
      "vscode://vscode.github-authentication/did-authenticate",
      "com.example.app:/oauth2redirect",
    ]
  ) assert.deepEqual(checkRedirectUri(uri), { ok: true }, uri);
});

Deno.test("checkRedirectUri() refuses dangerous schemes, remote http, fragments and credentials", () => {
  for (
    const uri of [
      "javascript:alert(document.cookie)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "vbscript:msgbox(1)",
      "blob:https://evil.example/1",
      "about:blank",
      "ftp://evil.example/x",
      "ws://127.0.0.1/x",
      "mailto:a@b.example",
      "http://evil.example/callback",
      "http://localhost.evil.example/cb",
      "https://app.example/cb#fragment",
      "https://user:pass@app.example/cb",
      "https://app.example/cb with space",
      "/relative/callback",
      "not a uri",
      `https://app.example/${"x".repeat(2_001)}`,
    ]
  ) {
    const check = checkRedirectUri(uri);
    assert.equal(check.ok, false, uri);
  }
});

Deno.test("redirectTarget(), isLocalRedirect(), formActionSource() and withParams() name and build redirects", () => {
  assert.equal(redirectTarget("https://claude.ai/api/mcp/auth_callback"), "claude.ai");
  assert.equal(redirectTarget("http://localhost:45123/oauth/callback"), "localhost:45123");
  assert.equal(
    redirectTarget("cursor://anysphere.cursor-mcp/oauth/callback"),
    "cursor://anysphere.cursor-mcp",
  );
  assert.equal(redirectTarget("com.example.app:/oauth2redirect"), "com.example.app:");
  assert.equal(isLocalRedirect("http://127.0.0.1:33418/"), true);
  assert.equal(isLocalRedirect("https://claude.ai/cb"), false);
  assert.equal(formActionSource("https://claude.ai/api/mcp/auth_callback"), "https://claude.ai");
  assert.equal(formActionSource("cursor://anysphere.cursor-mcp/oauth/callback"), "cursor:");
  assert.equal(
    withParams("https://app.example/cb?x=1", { code: "a b", state: "s&t" }),
    "https://app.example/cb?x=1&code=a+b&state=s%26t",
  );
  assert.equal(
    withParams("cursor://anysphere.cursor-mcp/oauth/callback", { code: "c" }),
    "cursor://anysphere.cursor-mcp/oauth/callback?code=c",
  );
});

Deno.test("isWebRedirect() tells a page a browser loads from an app's own link", () => {
  for (const uri of ["https://claude.ai/api/mcp/auth_callback", "http://127.0.0.1:33418/"]) {
    assert.equal(isWebRedirect(uri), true, uri);
  }
  for (const uri of ["cursor://anysphere.cursor-mcp/oauth/callback", "com.example.app:/cb"]) {
    assert.equal(isWebRedirect(uri), false, uri);
  }
});

Deno.test("checkRedirectUri() takes only a DNS name or an IP address as host: no quote, semicolon or comma can reach the CSP header", () => {
  for (
    const uri of [
      'https://a"b.example/cb',
      "https://a;b.example/cb",
      "https://a,b.example/cb",
      "https://a%22b.example/cb",
      "https://a'b.example/cb",
      "https://a$b.example/cb",
      "https://a*b.example/cb",
      "https://-a.example/cb",
      'cursor://an"y;x,y/cb',
    ]
  ) {
    const check = checkRedirectUri(uri);
    assert.equal(check.ok, false, uri);
    assert.match(check.ok ? "" : check.reason, /DNS name .* or an IP address/, uri);
  }
  for (
    const uri of [
      "https://xn--r8jz45g.jp/cb",
      "https://\u4f8b\u3048.jp/cb",
      "https://203.0.113.9/cb",
      "http://[::1]:4000/cb",
      "vscode://vscode.github-authentication/did-authenticate",
    ]
  ) assert.deepEqual(checkRedirectUri(uri), { ok: true }, uri);
});
