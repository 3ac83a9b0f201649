/**
 * A seeded fuzz of the whole catalogue through the one dispatch: for every
 * tool, arguments drawn from its own JSON Schema (with hostile paths,
 * line endings, BOMs, out-of-range numbers, alias fields) and now and then
 * anything at all, run on a fresh in-memory workspace rooted at `/ws` with
 * a file and a symbolic link outside the root. Each call must answer one
 * well-formed, JSON-serialisable result (no throw, no `internal`), leave
 * every byte as it was when it refuses, and never touch anything outside
 * the root. Used by `fuzz_test.ts` (bounded) and `bench/fuzz_storm.ts`
 * (100 times as many runs).
 *
 * @module
 */
import fc from "fast-check";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import type { Backend } from "../../../src/fs/backend.ts";
import { HTTP_STATUS } from "../../../src/surfaces/http_status.ts";
import { Grammars } from "../../../src/syntax/grammars.ts";
import { describeTools } from "../../../src/tools/catalogue.ts";
import { createWorkspace } from "../../../src/workspace.ts";

/** A JSON Schema as the catalogue writes them. */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  minimum?: number;
  minItems?: number;
  maximum?: number;
}

/** Files of the fuzzed workspace (outside the root: `/outside.txt`). */
const FILES: Record<string, string | Uint8Array> = {
  "/ws/a.ts": "export function f(x: number): number {\n  return x + 1;\n}\n\nexport const g = () => f(2);\n",
  "/ws/src/b.py": "def h(a):\n    return a * 2\n\n\nclass K:\n    def m(self):\n        return h(1)\n",
  "/ws/src/c.js": 'import { f } from "../a.ts";\nexport function use() {\n  return f(1);\n}\n',
  "/ws/crlf.txt": "one\r\ntwo\r\nthree\r\n",
  "/ws/bom.md": "\uFEFF# Title\n\nText without a final newline",
  "/ws/bin.dat": new Uint8Array([0, 1, 2, 255, 0, 10]),
  "/outside.txt": "outside the root\n",
};

/** Paths a model (or an attacker) might send. */
const PATHS = [
  "a.ts",
  "src/b.py",
  "src/c.js",
  "crlf.txt",
  "bom.md",
  "bin.dat",
  "new.ts",
  "src/new/deep.py",
  "escape.txt",
  "src",
  "",
  ".",
  "..",
  "../outside.txt",
  "/outside.txt",
  "/ws/a.ts",
  "src/../../outside.txt",
  "src\\..\\..\\outside.txt",
  "C:\\outside.txt",
  "a.ts\u0000.txt",
  ".graver/journal.json",
  ".git/config",
  "escape.txt/x",
  "a".repeat(300),
];

/** Texts for contents, search and replacement fields. */
const TEXTS = [
  "",
  "x",
  "return x + 1;",
  "  return x + 1;\n",
  "export function f(x: number): number {\n  return x + 2;\n}\n",
  "def h(a):\n    return a * 3\n",
  "two",
  "two\r\nTWO",
  "\uFEFF",
  "}",
  "{{{{",
  "<<<<<<< SEARCH\nreturn x + 1;\n=======\nreturn x + 3;\n>>>>>>> REPLACE",
  "--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n export function f(x: number): number {\n-  return x + 1;\n+  return x + 4;\n }\n",
  "*** Begin Patch\n*** Update File: a.ts\n@@\n-  return x + 1;\n+  return x + 5;\n*** End Patch",
  "f",
  "K/m",
  "g",
  "h",
  "(.*)+$",
  "\u0000",
  "é😀\u200b",
  "x".repeat(5000),
];

/** Symbol names and name paths of the files above, and some that are not there. */
const NAMES = [
  "f",
  "g",
  "h",
  "K",
  "K/m",
  "use",
  "x",
  "a",
  "missing",
  "K/m[0]",
  "f2",
  "class",
  "",
  "1bad name",
];

/** Versions: those of the files above (a caller that read them), one that is stale, a short prefix. */
const VERSIONS = [
  ...await Promise.all(
    Object.values(FILES).map(async (content) => {
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
      return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
    }),
  ),
  "0".repeat(64),
  "abcdef012345",
];

const pathLike = /path|file|from|to$|to_|destination|dir/i;
const nameLike = /name|symbol|target|anchor/i;

/** An arbitrary for one schema; `key` (the property name) picks paths or texts for strings. */
function arbitraryFor(schema: Schema, key: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((s) => arbitraryFor(s, key, depth + 1)));
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      if (key === "expected_version") return fc.constantFrom(...VERSIONS);
      return fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(...(pathLike.test(key) ? PATHS : nameLike.test(key) ? NAMES : TEXTS)),
        },
        { weight: 1, arbitrary: fc.constantFrom(...PATHS, ...TEXTS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
      );
    case "integer":
    case "number":
      return fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 8 }) },
        { weight: 1, arbitrary: fc.constantFrom(0, -1, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER) },
      );
    case "boolean":
      return fc.boolean();
    case "array":
      return depth > 3 ? fc.constant([]) : fc.array(arbitraryFor(schema.items ?? {}, key, depth + 1), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: 3,
      });
    case "object":
      return depth > 3 ? fc.constant({}) : objectFor(schema, depth);
    default:
      return fc.anything({ maxDepth: 1 });
  }
}

/**
 * An object of a schema's properties: the required ones, and at most two of the others (more would mostly
 * pick aliases that exclude each other); now and then an unknown field or a required one missing.
 */
function objectFor(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const required = props.filter(([k]) => (schema.required ?? []).includes(k)).map(([k]) => k);
  const optional = props.filter(([k]) => !required.includes(k)).map(([k]) => k);
  const valueOf = (k: string) => arbitraryFor(schema.properties![k]!, k, depth + 1);
  return fc.subarray(optional, { maxLength: Math.min(2, optional.length) }).chain((picked) => {
    const shape: Record<string, fc.Arbitrary<unknown>> = {};
    for (const k of [...required, ...picked]) shape[k] = valueOf(k);
    return fc.record(shape).chain((obj) =>
      depth > 0 ? fc.constant(obj) : fc.oneof(
        { weight: 16, arbitrary: fc.constant(obj) },
        { weight: 1, arbitrary: fc.constant({ ...obj, unknown_field: 1 }) },
        {
          weight: 1,
          arbitrary: fc.constant(
            Object.fromEntries(Object.entries(obj).filter(([k]) => !required.includes(k))),
          ),
        },
      )
    );
  });
}

/** One fuzzed call: the tool, its arguments and how it is made. */
export interface FuzzCall {
  tool: string;
  args: unknown;
  session: boolean;
}

/** Every tool's calls: mostly from its schema, sometimes anything at all. */
export function callArbitrary(): fc.Arbitrary<FuzzCall> {
  const tools = describeTools();
  return fc.oneof(...tools.map((t) =>
    fc.record({
      tool: fc.constant(t.name),
      args: fc.oneof(
        { weight: 9, arbitrary: arbitraryFor(t.inputSchema as Schema, "", 0) },
        { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
      ),
      session: fc.boolean(),
    })
  ));
}

/** Every file and link under `/` (path → bytes as hex or `-> target`), graver's own `.graver/` left out. */
async function snapshot(backend: Backend): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const fs = backend as unknown as {
    readdir(p: string): Promise<string[]>;
    lstat(p: string): Promise<{ isDirectory(): boolean; isSymbolicLink(): boolean }>;
    readFile(p: string): Promise<Uint8Array>;
    readlink(p: string): Promise<string>;
  };
  const walk = async (dir: string): Promise<void> => {
    for (const name of await fs.readdir(dir)) {
      const path = dir === "/" ? `/${name}` : `${dir}/${name}`;
      if (name === ".graver") continue;
      const st = await fs.lstat(path);
      if (st.isSymbolicLink()) out.set(path, `-> ${await fs.readlink(path)}`);
      else if (st.isDirectory()) {
        out.set(path, "dir");
        await walk(path);
      } else out.set(path, [...new Uint8Array(await fs.readFile(path))].join(","));
    }
  };
  await walk("/");
  return out;
}

const CODES = new Set(Object.keys(HTTP_STATUS));

/** What went wrong with one call, or null when it kept every promise. */
function judge(
  call: FuzzCall,
  result: unknown,
  before: Map<string, string>,
  after: Map<string, string>,
): string | null {
  const r = result as { ok?: unknown; tool?: unknown; error?: Record<string, unknown> };
  try {
    JSON.stringify(result);
  } catch (err) {
    return `not JSON-serialisable: ${err}`;
  }
  if (typeof r !== "object" || r === null || typeof r.ok !== "boolean" || typeof r.tool !== "string") {
    return `not a ToolResult: ${JSON.stringify(result)?.slice(0, 300)}`;
  }
  if (!r.ok) {
    const e = r.error ?? {};
    if (!CODES.has(String(e["code"]))) return `unknown error code ${String(e["code"])}`;
    if (e["code"] === "internal") return `internal: ${String(e["message"]).slice(0, 300)}`;
    if (typeof e["message"] !== "string" || e["message"] === "" || typeof e["hint"] !== "string") {
      return `malformed error ${JSON.stringify(e).slice(0, 300)}`;
    }
    for (const [path, bytes] of before) if (after.get(path) !== bytes) return `refused, yet ${path} changed`;
    for (const path of after.keys()) if (!before.has(path)) return `refused, yet ${path} appeared`;
  }
  for (const [path, bytes] of [...before, ...after]) {
    if (path.startsWith("/ws")) continue;
    if (before.get(path) !== after.get(path)) {
      return `${path} outside the root changed (${bytes.slice(0, 20)})`;
    }
  }
  void call;
  return null;
}

/** Options of {@linkcode fuzzCatalogue}. */
export interface FuzzOptions {
  /** The seed (fast-check's). */
  seed: number;
  /** How many calls. */
  runs: number;
}

/**
 * Run the fuzz: `runs` calls, each on a fresh workspace, seeded.
 *
 * @param options Seed and count.
 * @returns How many calls each tool got, how many were refused, and the count of each outcome code.
 * @throws fast-check's report of the first call that broke a promise (shrunk).
 */
export async function fuzzCatalogue(
  options: FuzzOptions,
): Promise<{ calls: Record<string, number>; refused: number; codes: Record<string, number> }> {
  const grammars = new Grammars(createWasmLoader());
  const calls: Record<string, number> = {};
  const codes: Record<string, number> = {};
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(callArbitrary(), async (call) => {
      const backend = createMemoryBackend(FILES);
      await (backend as unknown as { symlink(t: string, p: string): Promise<void> }).symlink(
        "/outside.txt",
        "/ws/escape.txt",
      );
      const workspace = await createWorkspace({ backend, root: "/ws", grammars });
      const before = await snapshot(backend);
      const result = await workspace.call(call.tool, call.args, call.session ? { session: "fuzz" } : {});
      const after = await snapshot(backend);
      await workspace.close();
      calls[call.tool] = (calls[call.tool] ?? 0) + 1;
      const code = result.ok ? "ok" : result.error.code;
      codes[code] = (codes[code] ?? 0) + 1;
      if (!result.ok) refused++;
      const broken = judge(call, result, before, after);
      if (broken) throw new Error(`${call.tool}: ${broken}`);
    }),
    { seed: options.seed, numRuns: options.runs, endOnFailure: true },
  );
  return { calls, refused, codes };
}
