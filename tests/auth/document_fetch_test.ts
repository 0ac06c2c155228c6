/**
 * The client metadata fetch's SSRF guard, against a real TLS server on loopback (a certificate
 * for `client.example` from a test CA, both in `testdata/`, made once with openssl for 100 years
 * — a self-signed leaf is refused by rustls as a CA used as an end entity). The
 * refusals run with the default address rule — loopback, private, link-local and the like are
 * refused whether written as an address or returned by DNS — so nothing is ever connected to.
 * The tests that need an answer pin `client.example` to the local server and admit exactly that
 * address, which exercises the pinned connection, the bounds and the redirect rule.
 */

import assert from "node:assert/strict";
import {
  ClientDocumentError,
  createDocumentFetcher,
  type ResolvedAddress,
} from "../../src/auth/document_fetch.ts";
import { systemClock } from "../../src/async/clock.ts";
import { ManualClock } from "../support/clock.ts";

const CERT = await Deno.readTextFile(new URL("testdata/client_example_cert.pem", import.meta.url));
const CA = await Deno.readTextFile(new URL("testdata/test_ca.pem", import.meta.url));
const KEY = await Deno.readTextFile(new URL("testdata/client_example_key.pem", import.meta.url));

/** A TLS server for `client.example` on loopback, answering with `handler`. */
function tlsServer(handler: (request: Request) => Response | Promise<Response>) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: CERT, key: KEY, onListen() {} },
    handler,
  );
  return {
    port: server.addr.port,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** A resolver giving fixed answers, counting its lookups. */
function resolver(answers: readonly ResolvedAddress[]) {
  const asked: string[] = [];
  return {
    asked,
    resolve: (host: string) => {
      asked.push(host);
      return Promise.resolve(answers);
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ClientDocumentError, `expected a ClientDocumentError, got ${error}`);
    return error.message;
  }
  throw new Error("expected the fetch to be refused");
}

Deno.test("document fetch refuses loopback, private, link-local and mapped addresses written in the URL", async () => {
  const dns = resolver([]);
  const fetchDocument = createDocumentFetcher({ clock: systemClock, resolve: dns.resolve });
  for (
    const url of [
      "https://127.0.0.1/client.json",
      "https://10.1.2.3/client.json",
      "https://192.168.0.10/client.json",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/client.json",
      "https://[::ffff:127.0.0.1]/client.json",
      "https://[fd00::1]/client.json",
      "https://[fe80::1]/client.json",
      "https://0.0.0.0/client.json",
      "https://2130706433/client.json", // 127.0.0.1 as one number: the URL parser normalises it
    ]
  ) {
    assert.match(await refusal(fetchDocument(url)), /not a public one/, url);
  }
  assert.deepEqual(dns.asked, [], "no name was resolved for an address");
});

Deno.test("document fetch refuses a host name whose DNS answers include a non-public address", async () => {
  for (
    const answers of [
      [{ address: "127.0.0.1", family: 4 }],
      [{ address: "10.0.0.7", family: 4 }],
      [{ address: "169.254.169.254", family: 4 }],
      [{ address: "fd12:3456::1", family: 6 }],
      // A mix: one internal answer is enough, whichever a connection would pick.
      [{ address: "93.184.216.34", family: 4 }, { address: "192.168.1.1", family: 4 }],
    ] as const
  ) {
    const dns = resolver(answers);
    const fetchDocument = createDocumentFetcher({ clock: systemClock, resolve: dns.resolve });
    assert.match(
      await refusal(fetchDocument("https://rebind.example/client.json")),
      /resolves to an address that is not public/,
    );
    assert.deepEqual(dns.asked, ["rebind.example"]);
  }
});

Deno.test("document fetch connects to the checked address only, and reads the document", async () => {
  await using server = tlsServer((request) =>
    Response.json({ client_id: request.url, seen: new URL(request.url).host })
  );
  const dns = resolver([{ address: "127.0.0.1", family: 4 }]);
  const fetchDocument = createDocumentFetcher({
    clock: systemClock,
    resolve: dns.resolve,
    allowAddress: (address) => address === "127.0.0.1",
    ca: CA,
    anyPort: true,
  });
  const url = `https://client.example:${server.port}/oauth/client.json`;
  const document = await fetchDocument(url);
  assert.deepEqual(document, { client_id: url, seen: `client.example:${server.port}` });
  assert.deepEqual(dns.asked, ["client.example"], "resolved once; the socket used that answer");
  // A body sent in chunks (no Content-Length) is put back together.
  await using chunked = tlsServer(() =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const part of ['{"client_id":', '"x", "n":', "[1,2,3]}"]) {
            controller.enqueue(new TextEncoder().encode(part));
          }
          controller.close();
        },
      }),
    )
  );
  assert.deepEqual(await fetchDocument(`https://client.example:${chunked.port}/c`), {
    client_id: "x",
    n: [1, 2, 3],
  });
  // The certificate must be for the host asked for, though the address is the same.
  const other = createDocumentFetcher({
    clock: systemClock,
    resolve: () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]),
    allowAddress: (address) => address === "127.0.0.1",
    ca: CA,
    anyPort: true,
  });
  assert.match(
    await refusal(other(`https://other.example:${server.port}/oauth/client.json`)),
    /TLS certificate could not be verified/,
  );
});

Deno.test("document fetch follows no redirect, and bounds size, time and format", async (t) => {
  const dns = resolver([{ address: "127.0.0.1", family: 4 }]);
  const pinned = {
    resolve: dns.resolve,
    allowAddress: (a: string) => a === "127.0.0.1",
    ca: CA,
    anyPort: true,
  };
  let reached = () => {};
  const arrived = new Promise<void>((resolve) => reached = resolve);
  const release = new AbortController();
  await using server = tlsServer(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/redirect") {
      return new Response(null, { status: 302, headers: { location: "https://127.0.0.1/x" } });
    }
    if (path === "/big") return new Response("x".repeat(6_000));
    if (path === "/text") return new Response("not json");
    if (path === "/missing") return new Response("nope", { status: 404 });
    reached();
    await new Promise((resolve) => release.signal.addEventListener("abort", resolve));
    return new Response("{}");
  });
  const base = `https://client.example:${server.port}`;
  const fetchDocument = createDocumentFetcher({ clock: systemClock, ...pinned });
  await t.step("a redirect is refused, not followed", async () => {
    assert.match(await refusal(fetchDocument(`${base}/redirect`)), /redirects/);
  });
  await t.step("a document over 5 KiB is refused", async () => {
    assert.match(await refusal(fetchDocument(`${base}/big`)), /larger than 5120 bytes/);
  });
  await t.step("an answer that is not JSON, or not 200, is refused", async () => {
    assert.match(await refusal(fetchDocument(`${base}/text`)), /not JSON/);
    assert.match(await refusal(fetchDocument(`${base}/missing`)), /HTTP 404/);
  });
  await t.step("an answer that does not come in 3 s is abandoned", async () => {
    const clock = new ManualClock();
    const slow = createDocumentFetcher({ clock, ...pinned });
    const pending = refusal(slow(`${base}/hang`));
    await arrived;
    clock.advance(3_000);
    assert.match(await pending, /did not answer within 3 s/);
    release.abort();
  });
});

Deno.test("document fetch bounds the DNS lookup by the same 3 s: a name server that never answers cannot hold the page", async () => {
  const clock = new ManualClock();
  let asked = () => {};
  const lookedUp = new Promise<void>((resolve) => asked = resolve);
  const fetchDocument = createDocumentFetcher({
    clock,
    // An attacker's authoritative server that holds every query.
    resolve: () => {
      asked();
      return new Promise<never>(() => {});
    },
  });
  const pending = refusal(fetchDocument("https://slow-dns.example/client.json"));
  await lookedUp;
  clock.advance(3_000);
  assert.match(await pending, /did not answer within 3 s/);
});

Deno.test("document fetch goes to port 443 only: a URL naming another port is refused before any lookup", async () => {
  const dns = resolver([{ address: "93.184.216.34", family: 4 }]);
  const fetchDocument = createDocumentFetcher({ clock: systemClock, resolve: dns.resolve });
  for (const port of [22, 25, 8443, 6379]) {
    assert.match(
      await refusal(fetchDocument(`https://scan.example:${port}/client.json`)),
      /not on port 443/,
    );
  }
  assert.deepEqual(dns.asked, []);
});
