import assert from "node:assert/strict";
import type { Notification } from "@modelcontextprotocol/server";
import { createProgressChannel } from "../../src/mcp/progress.ts";
import { captureLogs, logRecords } from "../support/log.ts";

Deno.test("createProgressChannel() numbers reports in order and flush() waits for every send", async () => {
  const sent: Notification[] = [];
  const releases: (() => void)[] = [];
  // Each send completes only when released, so the order of sends is the channel's doing.
  const notify = (notification: Notification) =>
    new Promise<void>((resolve) => {
      sent.push(notification);
      releases.push(resolve);
    });
  const { log } = captureLogs();
  const progress = createProgressChannel("tok-1", notify, log);
  progress.report("first");
  progress.report("second");
  let flushed = false;
  const flushing = progress.flush().then(() => (flushed = true));
  await Promise.resolve();
  assert.equal(sent.length, 1, "the second report waits for the first send");
  releases.shift()?.();
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
  assert.equal(sent.length, 2);
  assert.equal(flushed, false, "flush waits for the last send");
  releases.shift()?.();
  await flushing;
  assert.deepEqual(sent, [
    {
      method: "notifications/progress",
      params: { progressToken: "tok-1", progress: 1, message: "first" },
    },
    {
      method: "notifications/progress",
      params: { progressToken: "tok-1", progress: 2, message: "second" },
    },
  ]);
});

Deno.test("createProgressChannel() drops a report the transport refuses, logs it, and goes on", async () => {
  const sent: number[] = [];
  const { log, lines } = captureLogs();
  const progress = createProgressChannel(7, (notification) => {
    const step = Number(notification.params?.progress);
    if (step === 1) return Promise.reject(new Error("stream closed"));
    sent.push(step);
    return Promise.resolve();
  }, log);
  progress.report("lost");
  progress.report("delivered");
  await progress.flush();
  assert.deepEqual(sent, [2]);
  const dropped = logRecords(lines, "progress notification dropped");
  assert.equal(dropped.length, 1);
  assert.equal(dropped[0]?.level, "debug");
});
