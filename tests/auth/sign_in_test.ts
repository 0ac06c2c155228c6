/**
 * The public mode end to end with the MCP SDK client's own OAuth flow: discovery from the 401,
 * dynamic registration (or a client metadata document), PKCE, `resource`, the consent page
 * answered with a GW2 key, the `iss` check, the code exchange — then account tools with no
 * `X-GW2-Key` anywhere, and two players at once each seeing only their own account.
 */

import assert from "node:assert/strict";
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { TEST_KEYS } from "../fake_gw2/mod.ts";
import { MODERN, textOf } from "../support/app.ts";
import {
  CALLBACK,
  ConsentingProvider,
  type Handler,
  PUBLIC_URL,
  signIn,
  startPublicApp,
} from "../support/oauth.ts";

const MAIN = "Priory Tester.4821";
const VETERAN = "Priory Veteran.1907";

function transportFor(handler: Handler, provider: ConsentingProvider) {
  return new StreamableHTTPClientTransport(new URL(`${PUBLIC_URL}/mcp`), {
    authProvider: provider,
    // Under Deno 2.5 the SDK types `init` with @types/node's RequestInit.
    fetch: (url, init) => handler(new Request(url, init as RequestInit | undefined)),
  });
}

/** The SDK's interactive sign-in: connect, be sent to the consent page, finish, reconnect. */
async function signedInClient(
  handler: Handler,
  provider: ConsentingProvider,
  era: "2025" | "2026",
): Promise<Client & AsyncDisposable> {
  const options = era === "2026" ? { versionNegotiation: { mode: { pin: MODERN } } } : {};
  const first = new Client({ name: "priory-oauth-tests", version: "1.0.0" }, options);
  const transport = transportFor(handler, provider);
  await assert.rejects(first.connect(transport), UnauthorizedError);
  assert.ok(provider.code, "the consent page's answer carried a code");
  await transport.finishAuth(provider.code, provider.iss);
  await first.close();
  const client = new Client({ name: "priory-oauth-tests", version: "1.0.0" }, options);
  await client.connect(transportFor(handler, provider));
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

for (const era of ["2025", "2026"] as const) {
  Deno.test(`the MCP SDK client signs in with OAuth and calls priory_account with no X-GW2-Key (${era})`, async () => {
    await using app = await startPublicApp();
    const provider = new ConsentingProvider(app.handler, TEST_KEYS.full);
    await using client = await signedInClient(app.handler, provider, era);
    assert.equal(provider.iss, PUBLIC_URL, "RFC 9207: the answer names the issuer");
    const result = await client.callTool({ name: "priory_account", arguments: {} });
    assert.equal(result.isError, undefined, textOf(result));
    const account = result.structuredContent as { name: string; key_permissions: string[] };
    assert.equal(account.name, MAIN);
    assert.ok(account.key_permissions.includes("wallet"));
    // The tokens went where the SDK keeps them; none of the requests carried X-GW2-Key.
    assert.ok(provider.tokens()?.refresh_token);
  });
}

Deno.test("the MCP SDK client signs in with a Client ID Metadata Document instead of registering", async () => {
  const documentUrl = "https://client.example/oauth/metadata.json";
  const fetched: string[] = [];
  await using app = await startPublicApp({
    fetchDocument: (url) => {
      fetched.push(url);
      return Promise.resolve({
        client_id: url,
        client_name: "Metadata client",
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: "none",
      });
    },
  });
  const provider = new ConsentingProvider(app.handler, TEST_KEYS.veteran, documentUrl);
  await using client = await signedInClient(app.handler, provider, "2026");
  assert.deepEqual(fetched, [documentUrl], "the document was read once, at the consent step");
  assert.equal(provider.clientInformation()?.client_id, documentUrl);
  const result = await client.callTool({ name: "priory_account", arguments: {} });
  assert.equal((result.structuredContent as { name: string }).name, VETERAN);
});

Deno.test("two players signed in at once each see only their own account, over many interleaved calls", async () => {
  await using app = await startPublicApp();
  const [main, veteran] = await Promise.all([
    signIn(app.handler, TEST_KEYS.full),
    signIn(app.handler, TEST_KEYS.veteran),
  ]);
  const call = async (token: string, id: number) => {
    const response = await app.handler(
      new Request(`${PUBLIC_URL}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
          "mcp-protocol-version": MODERN,
          "mcp-method": "tools/call",
          "mcp-name": "priory_account",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: {
            name: "priory_account",
            arguments: {},
            _meta: {
              "io.modelcontextprotocol/protocolVersion": MODERN,
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      }),
    );
    const body = await response.json();
    return body.result.structuredContent.name as string;
  };
  const calls = Array.from({ length: 40 }, (_, index) => {
    const player = index % 2 === 0 ? main : veteran;
    return call(player.accessToken, index).then((name) => ({ index, name }));
  });
  for (const { index, name } of await Promise.all(calls)) {
    assert.equal(name, index % 2 === 0 ? MAIN : VETERAN, `call ${index}`);
  }
});
