/**
 * The traceability gate (spec 017 SC12): `docs/traceability.md` maps every acceptance scenario and
 * success criterion once, each row with a valid status and real evidence. A row owned by a later
 * issue is marked `later: <owner>` — accepted only for the criteria those issues own and only
 * with a known owner — so it can never pass for a filled row, and PENDING is rejected everywhere.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);
const DOC = new URL("docs/traceability.md", ROOT);

/** Every criterion of spec 017, in order. */
const CRITERIA: readonly string[] = [
  ...range(6).map((n) => `P1 #${n}`),
  ...range(4).map((n) => `P2 #${n}`),
  ...range(4).map((n) => `P3 #${n}`),
  ...range(6).map((n) => `P4 #${n}`),
  ...range(21).map((n) => `SC${n}`),
];
/** Criteria a later issue may own: the priory_* tools, the account tools, the ranking. */
const DEFERRABLE = new Set([
  ...CRITERIA.filter((id) => id.startsWith("P3") || id.startsWith("P4")),
  ...range(21).filter((n) => n >= 14).map((n) => `SC${n}`),
]);
const OWNERS = new Set(["priory tools issue", "account tools issue", "ranking issue"]);
const PLACEHOLDER = /\b(PENDING|TODO|TBD)\b/i;

function range(n: number): number[] {
  return Array.from({ length: n }, (_, index) => index + 1);
}

/** One parsed row. */
interface Row {
  readonly criterion: string;
  readonly status: string;
  readonly evidence: string;
}

/** A cited test file and the test names quoted after it. */
interface Citation {
  readonly path: string;
  readonly names: readonly string[];
}

/** The rows of the table under `## Matrix`. */
function parseMatrix(markdown: string): Row[] {
  const section = markdown.split(/^## Matrix\s*$/m)[1] ?? "";
  const lines = section.split("\n").map((line) => line.trim()).filter((line) =>
    line.startsWith("|")
  );
  return lines.slice(2).map((line) => {
    const cells = line.replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim());
    return { criterion: cells[0] ?? "", status: cells[1] ?? "", evidence: cells[2] ?? "" };
  });
}

/** The citations in an evidence cell: `` `tests/…_test.ts` — "name", "name" `` segments. */
function citations(evidence: string): Citation[] {
  return evidence.split(";").flatMap((segment) => {
    const path = /`((?:tests)\/[^`]+\.ts)`/.exec(segment)?.[1];
    if (path === undefined) return [];
    const after = segment.slice(segment.indexOf(path) + path.length);
    const names = [...after.matchAll(/"([^"]+)"/g)].map((match) => match[1] ?? "");
    return [{ path, names }];
  });
}

/** The names of every `Deno.test` and `t.step` written as a string literal in a test file. */
function declaredNames(source: string): Set<string> {
  const pattern =
    /(?:Deno\.test|\.step)\(\s*(?:"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`|'((?:[^'\\]|\\.)*)')/g;
  return new Set(
    [...source.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? match[3] ?? ""),
  );
}

/** Reads a file relative to the repository root; `undefined` when it does not exist. */
type ReadFile = (path: string) => string | undefined;

function readRepoFile(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(new URL(path, ROOT));
  } catch {
    return undefined;
  }
}

/** Every problem with the matrix; empty when the gate passes. */
function checkMatrix(markdown: string, read: ReadFile): string[] {
  const rows = parseMatrix(markdown);
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const row of rows) seen.set(row.criterion, (seen.get(row.criterion) ?? 0) + 1);
  for (const id of CRITERIA) {
    if (!seen.has(id)) problems.push(`${id}: missing`);
    else if ((seen.get(id) ?? 0) > 1) problems.push(`${id}: listed more than once`);
  }
  for (const row of rows) {
    const id = row.criterion;
    if (!CRITERIA.includes(id)) problems.push(`${id || "(blank)"}: not a spec 017 criterion`);
    if (row.evidence === "") problems.push(`${id}: empty evidence`);
    if (PLACEHOLDER.test(row.status) || PLACEHOLDER.test(row.evidence)) {
      problems.push(`${id}: placeholder text`);
    }
    const cited = citations(row.evidence);
    for (const citation of cited) {
      const source = read(citation.path);
      if (source === undefined) {
        problems.push(`${id}: cites ${citation.path}, which does not exist`);
        continue;
      }
      const names = declaredNames(source);
      for (const name of citation.names) {
        if (!names.has(name)) problems.push(`${id}: no test "${name}" in ${citation.path}`);
      }
    }
    const later = /^later: (.+)$/.exec(row.status);
    const words = row.evidence.split(/\s+/).filter((word) => word !== "").length;
    if (row.status === "tested") {
      if (cited.length === 0) problems.push(`${id}: tested but cites no test file`);
      if (cited.some((citation) => citation.names.length === 0)) {
        problems.push(`${id}: a cited file names no test`);
      }
    } else if (row.status === "manual") {
      if (!/\b\d{4}-\d{2}-\d{2}\b/.test(row.evidence)) problems.push(`${id}: manual but undated`);
      const record = /`(docs\/[^`]+\.md)`/.exec(row.evidence)?.[1];
      if (record === undefined || read(record) === undefined) {
        problems.push(`${id}: manual but names no existing record in docs/`);
      }
    } else if (row.status === "n/a") {
      if (words < 8) problems.push(`${id}: n/a needs a reason`);
    } else if (later !== null) {
      if (!OWNERS.has(later[1] ?? "")) problems.push(`${id}: unknown owner "${later[1]}"`);
      if (!DEFERRABLE.has(id)) problems.push(`${id}: owned by this issue, cannot be deferred`);
      if (words < 5) problems.push(`${id}: later needs to say what will prove it`);
    } else {
      problems.push(`${id}: unknown status "${row.status}"`);
    }
  }
  return problems;
}

Deno.test("docs/traceability.md maps every criterion once, with a valid status", async () => {
  const rows = parseMatrix(await Deno.readTextFile(DOC));
  assert.deepEqual(rows.map((row) => row.criterion), CRITERIA);
  const problems = checkMatrix(await Deno.readTextFile(DOC), () => "");
  assert.deepEqual(
    problems.filter((problem) => !problem.includes("no test") && !problem.includes("exist")),
    [],
  );
});

Deno.test("docs/traceability.md cites only tests that exist", async () => {
  assert.deepEqual(checkMatrix(await Deno.readTextFile(DOC), readRepoFile), []);
});

Deno.test("the traceability gate rejects empty, placeholder, unknown-owner and wrongly deferred rows", async (t) => {
  const valid = await Deno.readTextFile(DOC);
  const replaceRow = (criterion: string, row: string) =>
    valid.replace(new RegExp(`^\\|\\s*${criterion}\\s*\\|.*$`, "m"), row);
  const cases: [string, string, RegExp][] = [
    ["empty evidence", replaceRow("SC7", "| SC7 | tested |  |"), /SC7: empty evidence/],
    ["PENDING", replaceRow("SC7", "| SC7 | tested | PENDING |"), /SC7: placeholder text/],
    ["pending status", replaceRow("SC21", "| SC21 | PENDING | x |"), /SC21: placeholder text/],
    [
      "a missing test file",
      replaceRow("SC7", '| SC7 | tested | `tests/nope_test.ts` — "x" |'),
      /SC7: cites tests\/nope_test.ts, which does not exist/,
    ],
    [
      "a missing test name",
      replaceRow("SC7", '| SC7 | tested | `tests/mcp/errors_test.ts` — "no such test" |'),
      /SC7: no test "no such test"/,
    ],
    [
      "a file without a test name",
      replaceRow("SC7", "| SC7 | tested | `tests/mcp/errors_test.ts` |"),
      /SC7: a cited file names no test/,
    ],
    [
      "deferring a criterion this issue owns",
      replaceRow("SC7", "| SC7 | later: priory tools issue | To be proven by the priory tools. |"),
      /SC7: owned by this issue, cannot be deferred/,
    ],
    [
      "an unknown owner",
      replaceRow("SC21", "| SC21 | later: someone | To be proven by someone, later on. |"),
      /SC21: unknown owner "someone"/,
    ],
    ["a dropped row", replaceRow("SC7", ""), /SC7: missing/],
    ["an unknown status", replaceRow("SC7", "| SC7 | done | a b c d e f g h |"), /unknown status/],
    [
      "an undated manual row",
      replaceRow("SC10", "| SC10 | manual | recorded in `docs/clients.md` |"),
      /SC10: manual but undated/,
    ],
  ];
  for (const [label, markdown, expected] of cases) {
    await t.step(label, () => {
      const problems = checkMatrix(markdown, readRepoFile);
      assert.ok(problems.some((problem) => expected.test(problem)), problems.join("\n"));
    });
  }
});
