/**
 * The Rust extraction rules the fixtures do not reach, each on a small
 * program: values passed `&mut` / `&` with their uses rewritten through
 * `*x`, `?` and `.await` kept with the enclosing `Option`, generics copied.
 * Each output below was compiled when the test was written
 * (`rustc --edition 2021 --crate-type lib`), and re-parses here without new
 * syntax errors.
 */
import assert from "node:assert/strict";
import { between, extracted, linesOf } from "./_extract_helpers.ts";

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
