/**
 * The worker of `stall_probe.ts`: given `{url, intervalMs}`, asks `url` again and again (the next
 * request `intervalMs` after the last answer) until told `"stop"`, then posts its report.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import type { StallReport } from "./stall_probe.ts";

let stopping = false;
const answers: number[] = [];
const slow: [number, number][] = [];
let longestMs = 0;
let longestAtMs = 0;

async function probe(url: string, intervalMs: number): Promise<void> {
  const began = performance.now();
  while (!stopping) {
    const sent = performance.now();
    try {
      const response = await fetch(url);
      await response.body?.cancel();
    } catch {
      // A failed probe times nothing; the server may be starting or stopping.
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
      continue;
    }
    const took = performance.now() - sent;
    answers.push(took);
    if (took > 50 && slow.length < 20) slow.push([Math.round(sent - began), Math.round(took)]);
    if (took > longestMs) {
      longestMs = took;
      longestAtMs = sent - began;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

let running: Promise<void> | undefined;
self.onmessage = async (event: MessageEvent<{ url: string; intervalMs: number } | "stop">) => {
  if (event.data !== "stop") {
    running = probe(event.data.url, event.data.intervalMs);
    return;
  }
  stopping = true;
  await running;
  const sorted = [...answers].sort((a, b) => a - b);
  const report: StallReport = {
    samples: answers.length,
    longestMs,
    longestAtMs,
    medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    over50: answers.filter((ms) => ms > 50).length,
    slow,
  };
  self.postMessage(report);
};
