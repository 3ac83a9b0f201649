/**
 * The Go extraction rules the fixtures do not reach, each on a small program:
 * results received with `=` and type parameters copied with their
 * constraints; a value receiver refused. Each output below was compiled when
 * the test was written (`go vet`), and re-parses here without new syntax
 * errors.
 */
import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { planExtract } from "../../../../src/structural/extract/extract.ts";
import { workspaceOf } from "../../tools/_bindings_fixtures.ts";
import { between, extracted, linesOf } from "./_extract_helpers.ts";

/** A counter with a value receiver, a generic lookup and a joiner (Go). */
const PAIRS_GO = [
  "package m",
  "",
  'import "strings"',
  "",
  "type Counter struct {",
  "\tn     int",
  "\tnames []string",
  "}",
  "",
  "func (c Counter) Total(extra int) int {",
  "\tsum := c.n + extra",
  "\tc.n++",
  "\treturn sum + c.n",
  "}",
  "",
  "func (c *Counter) Add(name string) int {",
  "\tvar b strings.Builder",
  "\tb.WriteString(name)",
  "\tlabel := b.String()",
  "\tc.names = append(c.names, label)",
  "\tc.n++",
  "\treturn c.n",
  "}",
  "",
  "func Pairs[K comparable, V any](m map[K]V, keys []K) ([]V, int) {",
  "\tvar out []V",
  "\tmissing := 0",
  "\tfor _, k := range keys {",
  "\t\tv, ok := m[k]",
  "\t\tif !ok {",
  "\t\t\tmissing++",
  "\t\t\tcontinue",
  "\t\t}",
  "\t\tout = append(out, v)",
  "\t}",
  "\tcount := len(out)",
  "\tfirst := count > 0",
  "\tif first {",
  "\t\tmissing = missing + 0",
  "\t}",
  "\treturn out, missing",
  "}",
  "",
  "func Labels(words []string) string {",
  "\ttotal := 0",
  "\tvar parts []string",
  "\tfor i := 0; i < len(words); i++ {",
  "\t\ttotal += len(words[i])",
  "\t\tparts = append(parts, words[i])",
  "\t}",
  '\tjoined := strings.Join(parts, ",")',
  '\treturn joined + strings.Repeat("!", total)',
  "}",
  "",
].join("\n");

Deno.test("planExtract() Go: results received with =, type parameters copied with their constraints", async () => {
  const plan = await extracted("m.go", PAIRS_GO, 28, 35, "collect");
  assert.equal(plan.call, "missing, out = collect(keys, m, missing, out)");
  assert.equal(
    between(plan.text, "func collect", "func Labels"),
    [
      "func collect[K comparable, V any](keys []K, m map[K]V, missing int, out []V) (int, []V) {",
      ...linesOf(PAIRS_GO, 28, 35),
      "\treturn missing, out",
      "}",
      "",
      "",
    ].join("\n"),
  );
  // A result new in the block and one declared before it in the same block: `:=` reuses the old one.
  const labels = await extracted("m.go", PAIRS_GO, 46, 50, "gather");
  assert.equal(labels.call, "parts, total := gather(words, total)");
  assert.ok(labels.text.includes("func gather(words []string, total int) ([]string, int) {"));
});

Deno.test("planExtract() Go: a value receiver the statements change, and a struct value with a method call, are refused", async () => {
  const ws = await workspaceOf({ "/m.go": PAIRS_GO });
  const stage = new Stage(ws.fs, ws.sandbox);
  const refused = async (start_line: number, end_line: number) => {
    try {
      await planExtract(ws, stage, {
        path: "m.go",
        range: { start_line, end_line },
        name: "helper",
        tool: "test",
      });
    } catch (e) {
      assert.ok(e instanceof RecoverableError);
      return e;
    }
    assert.fail("expected a refusal");
  };
  const receiver = await refused(12, 12);
  assert.equal(receiver.code, "types_required");
  assert.match(receiver.message, /"c" is a value receiver the statements may change/);
  const builder = await refused(18, 18);
  assert.equal(builder.code, "types_required");
  assert.match(builder.message, /"b" of type strings\.Builder has a method called on it/);
});
