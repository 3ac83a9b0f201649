/**
 * A sweep of `search_structural` against `ast-grep run -p` on the real trees of the equality test
 * (`tests/unit/search/_astgrep.ts`'s `sgTrees`: hono, hono's types, ajv, CPython's `email`, go-cmp, semver,
 * smallvec, those installed here): for each pattern of a wider table than the test's, both tools' sets of
 * matches (path, start line, start column) are compared and every difference is listed. Not a timing: it is
 * how a reading difference is found (the sixth session found four this way, each fixed or stated below).
 *
 *   deno run -A bench/structural_parity.ts [--tree NAME]
 *
 * Differences stated (graver's reading is the wider or the right one): a method or accessor written alone
 * (`async $M($$$P) { $$$B }`, `get $N() { $$$B }`), a spread (`...$X`) and an optional field (`$P?: $T`)
 * parse in graver's class-body or expression contexts, where `ast-grep run -p` reads a broken statement and
 * finds nothing.
 *
 * @module
 */
import { astGrepOrExit } from "./_structural.ts";
import { printTable, result } from "./_util.ts";
import { astGrepSet, graverSet, sgTrees } from "../tests/unit/search/_astgrep.ts";

/** Patterns per tree: the tree's `--lang` and the patterns. */
const SWEEP: Record<string, { lang: string; patterns: string[] }> = {
  hono: {
    lang: "js",
    patterns: [
      "console.log($$$A)",
      "await $X",
      "async function $F($$$P) { $$$B }",
      "import $X from $Y",
      "$A === $B",
      "$A ? $B : $C",
      "$A ? $B",
      "typeof $X === $T",
      "new $C($$$A)",
      "for (const $X of $Y) { $$$B }",
      "try { $$$A } catch ($E) { $$$B }",
      "($$$P) => $B",
      "async ($$$P) => { $$$B }",
      "return;",
      "if (!$X) return $Y",
      "$O[$K] = $V",
      "let $X",
      "switch ($X) { $$$C }",
      "case $X:",
      "$A ?? $B",
      "throw $E",
      "yield $X",
      "delete $X",
      "JSON.stringify($$$A)",
      "$X.map($F)",
    ],
  },
  hono_types: {
    lang: "ts",
    patterns: [
      "export type $T = $V",
      "interface $I { $$$B }",
      "declare function $F($$$P): $R;",
      "export declare class $C { $$$B }",
    ],
  },
  ajv: {
    lang: "ts",
    patterns: [
      "export function $F($$$P): $R { $$$B }",
      "import {$$$A} from $B",
      'import {$$$A} from "$B"',
      "import * as $N from $M",
      "import $X from $Y",
      "$A ? $B",
      "await $X",
      "return $X",
      "this.$A($$$B)",
      "const $A = $B",
      "if ($C) { $$$B }",
      "$A?.$B",
    ],
  },
  email: {
    lang: "py",
    patterns: [
      "def $F($$$P): $$$B",
      "return $X",
      "import $M",
      "from $M import $$$N",
      "try: $$$B",
      "lambda $$$A: $B",
      "$A if $C else $B",
      "yield $X",
      "class $C($$$B): $$$D",
      "raise $E",
      "$X is None",
      "not $X",
      "@$D",
      "[$X for $Y in $Z]",
    ],
  },
  go_cmp: {
    lang: "go",
    patterns: [
      "if err != nil { $$$B }",
      "func $F($$$P) $R { $$$B }",
      "return $X",
      "defer $X",
      "switch $X { $$$C }",
      "case $X:",
      "$X, $Y := $Z",
      "for $$$H { $$$B }",
      "var $X $T",
      "type $T struct { $$$F }",
      "$X.($T)",
    ],
  },
  smallvec: {
    lang: "rs",
    patterns: [
      "fn $F($$$P) -> $R { $$$B }",
      "impl<$$$G> $T for $S { $$$B }",
      "match $X { $$$A }",
      "$X?",
      "let $P = $E;",
      "if let Some($X) = $Y { $$$B }",
      "#[$A]",
      "use $P;",
      "&mut $X",
      "while $C { $$$B }",
      "$A as $T",
    ],
  },
};

const only = Deno.args.includes("--tree") ? Deno.args[Deno.args.indexOf("--tree") + 1] : undefined;
const bin = await astGrepOrExit("structural_parity");
const trees = await sgTrees();
const rows = [["tree", "pattern", "ast-grep", "graver", "only ast-grep", "only graver"]];
const differing: string[] = [];
let compared = 0;
for (const [tree, { lang, patterns }] of Object.entries(SWEEP)) {
  const root = trees[tree];
  if (!root || (only !== undefined && only !== tree)) continue;
  for (const pattern of patterns) {
    const c = { name: pattern, pattern, lang };
    const [theirs, ours] = [await astGrepSet(bin, root, c), await graverSet(root, c)];
    const onlyTheirs = [...theirs].filter((m) => !ours.has(m));
    const onlyOurs = [...ours].filter((m) => !theirs.has(m));
    rows.push([
      tree,
      `\`${pattern}\``,
      `${theirs.size}`,
      `${ours.size}`,
      `${onlyTheirs.length}`,
      `${onlyOurs.length}`,
    ]);
    compared++;
    if (onlyTheirs.length + onlyOurs.length > 0) {
      differing.push(
        `${tree} ${pattern}: ast-grep only ${onlyTheirs.slice(0, 3).join(", ")}; graver only ${
          onlyOurs.slice(0, 3).join(", ")
        }`,
      );
    }
  }
}
printTable(rows);
for (const d of differing) console.log(`- ${d}`);
result(
  "structural parity: patterns whose match sets equal ast-grep's",
  `${compared - differing.length} of ${compared}`,
);
