import assert from "node:assert/strict";
import { readBoundedBody } from "../../src/http/body.ts";

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/mcp", { method: "POST", body, headers });
}

Deno.test("readBoundedBody() returns the bytes of a body within the bound", async () => {
  const read = await readBoundedBody(post("hello"), 5);
  assert.ok(read.ok);
  assert.equal(new TextDecoder().decode(read.body), "hello");
});

Deno.test("readBoundedBody() returns an empty body for a body-less request", async () => {
  const read = await readBoundedBody(new Request("http://localhost/mcp"), 5);
  assert.ok(read.ok);
  assert.equal(read.body.byteLength, 0);
});

Deno.test("readBoundedBody() refuses a declared Content-Length over the bound unread", async () => {
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(new Uint8Array(1));
    },
  }, { highWaterMark: 0 });
  const read = await readBoundedBody(post(stream, { "content-length": "6" }), 5);
  assert.deepEqual(read, { ok: false, reason: "too_large" });
  assert.equal(pulls, 0);
});

Deno.test("readBoundedBody() stops a stream one chunk past the bound", async () => {
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(new Uint8Array(3));
    },
  }, { highWaterMark: 0 });
  const read = await readBoundedBody(post(stream), 5);
  assert.deepEqual(read, { ok: false, reason: "too_large" });
  assert.equal(pulls, 2);
});

Deno.test("readBoundedBody() reports a failing stream as unreadable", async () => {
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(new TypeError("connection reset"));
    },
  });
  assert.deepEqual(await readBoundedBody(post(stream), 5), { ok: false, reason: "unreadable" });
});

Deno.test("readBoundedBody() reads a body within its declared Content-Length", async () => {
  const read = await readBoundedBody(post("hello", { "content-length": "5" }), 5);
  assert.ok(read.ok);
  assert.equal(new TextDecoder().decode(read.body), "hello");
});

Deno.test("readBoundedBody() reads a declared body without touching request.body", async () => {
  // Reading the getter makes Deno.serve wrap the body in a stream first: ~15 µs per warm call.
  const touched: string[] = [];
  class Watched extends Request {
    override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
      touched.push("body");
      return super.body;
    }
  }
  const init = { method: "POST", body: "hello", headers: { "content-length": "5" } };
  const read = await readBoundedBody(new Watched("http://localhost/mcp", init), 5);
  assert.ok(read.ok);
  assert.equal(new TextDecoder().decode(read.body), "hello");
  assert.deepEqual(touched, []);
});

Deno.test("readBoundedBody() returns an empty body for a body-less request declaring 0", async () => {
  const read = await readBoundedBody(post(null, { "content-length": "0" }), 5);
  assert.ok(read.ok);
  assert.equal(read.body.byteLength, 0);
});

Deno.test("readBoundedBody() refuses a body longer than the bound it declared within", async () => {
  // Only a Request built in process can carry more than its Content-Length; still no more
  // than the bound gets through.
  const read = await readBoundedBody(post("hello, world", { "content-length": "5" }), 5);
  assert.deepEqual(read, { ok: false, reason: "too_large" });
});
