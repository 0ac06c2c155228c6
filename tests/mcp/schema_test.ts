import assert from "node:assert/strict";
import { z } from "zod";
import { leanSchema, prune } from "../../src/mcp/schema.ts";

const options = { target: "draft-2020-12" } as const;

Deno.test("leanSchema() publishes without $schema and safe-integer bounds", () => {
  const schema = leanSchema(z.strictObject({ ids: z.array(z.number().int().positive()) }));
  assert.deepEqual(schema["~standard"].jsonSchema.input(options), {
    type: "object",
    properties: {
      ids: { type: "array", items: { type: "integer", exclusiveMinimum: 0 } },
    },
    required: ["ids"],
    additionalProperties: false,
  });
});

Deno.test("leanSchema() drops additionalProperties: false from output schemas only", () => {
  const schema = leanSchema(z.object({ rows: z.array(z.object({ id: z.number() })) }));
  const output = schema["~standard"].jsonSchema.output(options);
  assert.doesNotMatch(JSON.stringify(output), /additionalProperties|\$schema/);
  assert.deepEqual(output, {
    type: "object",
    properties: {
      rows: {
        type: "array",
        items: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
      },
    },
    required: ["rows"],
  });
});

Deno.test("leanSchema() drops the propertyNames every string-keyed record carries, and only that", () => {
  const schema = leanSchema(z.object({
    names: z.record(z.string(), z.string()),
    codes: z.record(z.string().regex(/^[a-z]+$/), z.number()),
  }));
  const output = schema["~standard"].jsonSchema.output(options);
  assert.deepEqual((output.properties as Record<string, unknown>).names, {
    type: "object",
    additionalProperties: { type: "string" },
  });
  assert.deepEqual(
    (output.properties as Record<string, Record<string, unknown>>).codes?.propertyNames,
    { type: "string", pattern: "^[a-z]+$" },
    "a real constraint on the keys stays",
  );
});

Deno.test("leanSchema() validates exactly as zod does", async () => {
  const zod = z.strictObject({ n: z.number().int({ error: "whole numbers only" }) });
  const lean = leanSchema(zod)["~standard"];
  assert.deepEqual(await lean.validate({ n: 2 }), { value: { n: 2 } });
  const failed = await lean.validate({ n: 2.5 });
  assert.ok(failed.issues);
  assert.equal(failed.issues[0]?.message, "whole numbers only");
});

Deno.test("prune() leaves property names alone, even keyword-like ones", () => {
  const pruned = prune({
    $schema: "x",
    type: "object",
    properties: { $schema: { type: "string" }, maximum: { type: "number" } },
  }, "input");
  assert.deepEqual(pruned, {
    type: "object",
    properties: { $schema: { type: "string" }, maximum: { type: "number" } },
  });
});

Deno.test("leanSchema() converts once per target and serves a frozen schema", () => {
  const schema = leanSchema(z.strictObject({ n: z.number() }))["~standard"].jsonSchema;
  const first = schema.input(options);
  assert.equal(schema.input(options), first);
  assert.ok(Object.isFrozen(first));
  assert.ok(Object.isFrozen(first.properties));
  assert.notEqual(schema.output(options), first);
});

Deno.test("leanSchema() spells a nullable field as anyOf of single types", () => {
  const schema = leanSchema(z.object({
    price: z.number().nullable().describe("Copper, or null when unsold"),
    name: z.string().nullable(),
  }));
  const output = schema["~standard"].jsonSchema.output(options);
  assert.deepEqual(output.properties, {
    price: {
      description: "Copper, or null when unsold",
      anyOf: [{ type: "number" }, { type: "null" }],
    },
    name: { anyOf: [{ type: "string" }, { type: "null" }] },
  });
  assert.doesNotMatch(JSON.stringify(output), /"type":\[/);
});

Deno.test("leanSchema() declares a free-form object as {type: object}, nothing empty", () => {
  const schema = leanSchema(z.object({
    tree: z.looseObject({}),
    summary: z.looseObject({ id: z.number() }),
    rows: z.array(z.looseObject({})),
  }));
  for (const io of ["input", "output"] as const) {
    const published = schema["~standard"].jsonSchema[io](options);
    const properties = published.properties as Record<string, unknown>;
    assert.deepEqual(properties.tree, { type: "object" }, io);
    assert.deepEqual(
      properties.summary,
      { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
      io,
    );
    assert.deepEqual(properties.rows, { type: "array", items: { type: "object" } }, io);
  }
});
