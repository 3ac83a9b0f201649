/**
 * The Go and Rust extraction rules the fixtures do not reach, each on a small
 * program: Rust values passed `&mut` / `&` with their uses rewritten through
 * `*x`, `?` and `.await` kept with the enclosing `Option`, generics copied; Go
 * results received with `=` and type parameters copied with their
 * constraints; a Go value receiver refused. Each output below was compiled
 * when the test was written (`rustc --edition 2021 --crate-type lib`,
 * `go vet`), and re-parses here without new syntax errors.
 */
import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { planExtract } from "../../../../src/structural/extract/extract.ts";
import { assertReparses, workspaceOf } from "../../tools/_bindings_fixtures.ts";

/** Statistics of a word list (Rust): counters changed in place, strings compared and printed. */
const STATS_RS = [
  "#[derive(Debug)]",
  "pub struct Stats {",
  "    pub count: u32,",
  "    pub name: String,",
  "}",
  "",
  "pub fn summarise(input: &str) -> Stats {",
  "    let mut count: u32 = 0;",
  "    let mut name: String = String::new();",
  '    let title: String = String::from("total");',
  "    count += 1;",
  "    if count > 3 {",
  "        count = 3;",
  "    }",
  "    name.push_str(input);",
  "    let same = title == name;",
  '    println!("{} {} {}", title, same, count);',
  "    let stats = Stats { count, name };",
  '    println!("{:?} {}", stats, title);',
  "    stats",
  "}",
  "",
  "impl Stats {",
  "    pub fn bump(&mut self, by: u32) -> u32 {",
  "        let mut step: u32 = by;",
  "        self.count += step;",
  "        step += 1;",
  "        self.count + step",
  "    }",
  "}",
  "",
].join("\n");

/** A fallible tally and a generic async lookup (Rust). */
const TALLY_RS = [
  "use std::collections::HashMap;",
  "",
  "pub fn tally(words: &[&str], limit: usize) -> Result<usize, String> {",
  "    let mut total: usize = 0;",
  "    let mut seen: HashMap<String, usize> = HashMap::new();",
  '    let label: String = String::from("count");',
  "    for w in words {",
  "        total += 1;",
  "        *seen.entry(w.to_string()).or_insert(0) += 1;",
  "        if total > limit {",
  '            return Err(format!("{} over {}", label, limit));',
  "        }",
  "    }",
  '    let first: usize = words.first().map(|w| w.len()).ok_or_else(|| "empty".to_string())?;',
  "    let n: usize = seen.len() + first;",
  '    println!("{} {} {}", label, total, n);',
  "    Ok(total + seen.len())",
  "}",
  "",
  "pub async fn fetch<T: Clone + std::fmt::Debug>(items: Vec<T>, pick: usize) -> Option<T> {",
  "    let chosen: T = items.get(pick)?.clone();",
  "    let again: T = ready(chosen.clone()).await;",
  '    println!("{:?}", again);',
  "    Some(again)",
  "}",
  "",
  "async fn ready<T>(x: T) -> T {",
  "    x",
  "}",
  "",
].join("\n");

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

async function extracted(path: string, text: string, start_line: number, end_line: number, name: string) {
  const ws = await workspaceOf({ [`/${path}`]: text });
  const plan = await planExtract(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    range: { start_line, end_line },
    name,
    tool: "test",
  });
  await assertReparses(path.endsWith(".go") ? "go" : "rust", text, plan.text, path);
  return plan;
}

/** Lines `from..to` (1-based, inclusive) of a program: the statements moved as they were. */
function linesOf(text: string, from: number, to: number): string[] {
  return text.split("\n").slice(from - 1, to);
}

/** The text between two markers of a plan (inclusive of the first, exclusive of the second). */
function between(text: string, from: string, to: string): string {
  const a = text.indexOf(from);
  assert.ok(a >= 0, from);
  return text.slice(a, text.indexOf(to, a + from.length));
}

Deno.test("planExtract() Rust: changed values go &mut, values used after go &, their uses read through *x", async () => {
  const plan = await extracted("lib.rs", STATS_RS, 11, 17, "step");
  assert.deepEqual(plan.parameters, ["count", "name", "input", "title"]);
  assert.equal(plan.call, "step(&mut count, &mut name, input, &title);");
  assert.equal(
    between(plan.text, "fn step(", "impl Stats"),
    [
      "fn step(count: &mut u32, name: &mut String, input: &str, title: &String) {",
      "    *count += 1;",
      "    if *count > 3 {",
      "        *count = 3;",
      "    }",
      "    name.push_str(input);",
      "    let same = *title == *name;",
      '    println!("{} {} {}", title, same, count);',
      "}",
      "",
      "",
    ].join("\n"),
  );
  // In a method: &mut self copied, a local changed inside passed &mut, the tail value returned.
  const method = await extracted("lib.rs", STATS_RS, 26, 28, "advance");
  assert.equal(method.kind, "method");
  assert.equal(method.call, "self.advance(&mut step)");
  assert.ok(
    method.text.includes(
      "    fn advance(&mut self, step: &mut u32) -> u32 {\n        self.count += *step;\n        *step += 1;\n        self.count + *step\n    }",
    ),
  );
});

Deno.test("planExtract() Rust: ? and .await kept through the enclosing Option, type parameters copied", async () => {
  const plan = await extracted("lib.rs", TALLY_RS, 21, 23, "pick_ready");
  assert.equal(plan.async, true);
  assert.equal(plan.call, "let again = pick_ready(items, pick).await?;");
  assert.equal(
    between(plan.text, "async fn pick_ready", "async fn ready"),
    [
      "async fn pick_ready<T: Clone + std::fmt::Debug>(items: Vec<T>, pick: usize) -> Option<T> {",
      ...linesOf(TALLY_RS, 21, 24),
      "}",
      "",
      "",
    ].join("\n"),
  );
  // The same with a Result: the new function returns Result<usize, String> and ends in Ok(n).
  const tally = await extracted("lib.rs", TALLY_RS, 14, 15, "first_len");
  assert.equal(tally.call, "let n = first_len(words, &mut seen)?;");
  assert.ok(
    tally.text.includes(
      "fn first_len(words: &[&str], seen: &mut HashMap<String, usize>) -> Result<usize, String> {",
    ),
  );
  assert.ok(tally.text.includes("    Ok(n)\n}"));
});

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
