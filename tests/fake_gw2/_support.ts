/**
 * Helpers for the fake's own tests: one-call requests against an in-process fake and
 * narrowing of parsed JSON without `any`.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { FakeGw2 } from "./mod.ts";

/** A consumed answer. */
export interface Got {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body (undefined when it is not JSON). */
  readonly body: unknown;
}

/** GETs `path` (with query) from the fake and consumes the body. */
export async function get(fake: FakeGw2, path: string, init: RequestInit = {}): Promise<Got> {
  const response = await fake.fetch(new Request(`http://gw2.test${path}`, init));
  return await consume(response);
}

/** Reads a response fully. */
export async function consume(response: Response): Promise<Got> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** Request options presenting a key in the `Authorization` header. */
export function bearer(key: string): RequestInit {
  return { headers: { Authorization: `Bearer ${key}` } };
}

/** The value as an array (fails the test otherwise). */
export function asArray(value: unknown): readonly unknown[] {
  assert.ok(Array.isArray(value), `expected an array, got ${JSON.stringify(value)}`);
  const out: unknown[] = [...value];
  return out;
}

/** The value as a JSON object (fails the test otherwise). */
export function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  assert.ok(
    typeof value === "object" && value !== null && !Array.isArray(value),
    `expected an object, got ${JSON.stringify(value)}`,
  );
  return Object.fromEntries(Object.entries(value));
}

/** The `id` fields of an array of records. */
export function idsOf(value: unknown): unknown[] {
  return asArray(value).map((record) => asRecord(record).id);
}

/** The exact pretty-printed error body upstream sends. */
export function errorBody(text: string): string {
  return JSON.stringify({ text }, null, 2);
}
