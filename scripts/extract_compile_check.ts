/**
 * Local check (not run in CI: it needs `go` and `rustc`): extract function at
 * every window of 1–4 consecutive statements (and every "rest of the body")
 * of the real Go and Rust fixtures (tests/fixtures/bindings/go-cmp, semver),
 * then compile a temporary copy of the code base after each successful
 * extraction — `go vet ./...` for go-cmp, `rustc --emit=metadata` for the
 * semver crate. Prints how many ranges were tried, refused (by code),
 * extracted, and how many of those compile; lists the ones that do not.
 *
 *   deno run -A scripts/extract_compile_check.ts go [max] [--reasons]
 *   deno run -A scripts/extract_compile_check.ts rust [max] [--reasons]
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { RecoverableError } from "../src/errors.ts";
import { createMemoryBackend } from "../src/fs/memory_backend.ts";
import { Stage } from "../src/fs/stage.ts";
import { planExtract } from "../src/structural/extract/extract.ts";
import { Grammars } from "../src/syntax/grammars.ts";
import { createWorkspace } from "../src/workspace.ts";

const language = Deno.args[0] === "rust" ? "rust" : "go";
const max = Number(Deno.args.find((a, i) => i > 0 && /^\d+$/.test(a)) ?? "60");
const root = new URL(
  `../tests/fixtures/bindings/${language === "go" ? "go-cmp" : "semver"}/`,
  import.meta.url,
);
const ext = language === "go" ? ".go" : ".rs";

function readTree(dir: URL, prefix: string, out: Record<string, string>): void {
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) readTree(new URL(`${e.name}/`, dir), `${prefix}${e.name}/`, out);
    else out[`${prefix}${e.name}`] = Deno.readTextFileSync(new URL(e.name, dir));
  }
}
const files: Record<string, string> = {};
readTree(root, "", files);

const grammars = new Grammars(createWasmLoader());
const parser = await grammars.parser(language);
const container = language === "go" ? "statement_list" : "block";

/** Line windows of consecutive statements in every statement list of a file. */
function windows(text: string): [number, number][] {
  const out: [number, number][] = [];
  const visit = (n: Node) => {
    if (n.type === container) {
      const code = n.namedChildren.filter((c): c is Node => c !== null && !c.type.includes("comment"));
      for (let i = 0; i < code.length; i++) {
        for (const len of [1, 2, 3, 4, code.length - i]) {
          const last = code[i + len - 1];
          if (len < 1 || !last) continue;
          out.push([code[i]!.startPosition.row + 1, last.endPosition.row + 1]);
        }
      }
    }
    for (const c of n.namedChildren) if (c) visit(c);
  };
  const tree = parser.parse(text)!;
  visit(tree.rootNode);
  tree.delete();
  const seen = new Set<string>();
  return out.filter(([a, b]) => !seen.has(`${a}-${b}`) && seen.add(`${a}-${b}`));
}

/** One Go build cache for the whole run (removed at the end). */
const cache = await Deno.makeTempDir();

async function compiles(path: string, text: string): Promise<{ ok: boolean; output: string }> {
  const dir = await Deno.makeTempDir();
  try {
    for (const [rel, t] of Object.entries(files)) {
      const target = `${dir}/${rel}`;
      await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(target, rel === path ? text : t);
    }
    const cmd = language === "go"
      ? new Deno.Command("go", {
        args: ["vet", "./..."],
        cwd: dir,
        env: {
          GOFLAGS: "-mod=mod",
          GOPATH: `${cache}/gopath`,
          GOCACHE: `${cache}/gocache`,
          GOTOOLCHAIN: "local",
        },
      })
      : new Deno.Command("/root/.cargo/bin/rustc", {
        args: [
          "--edition",
          "2018",
          "--crate-type",
          "lib",
          "--crate-name",
          "semver",
          "src/lib.rs",
          "--cfg",
          'feature="std"',
          "--emit=metadata",
          "-o",
          `${dir}/out.rmeta`,
        ],
        cwd: dir,
      });
    const out = await cmd.output();
    const output = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    return { ok: out.success && !/^(?:warning: unused|error)/m.test(output), output };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const refused = new Map<string, number>();
/** Refusal reasons (the message without lines, names and paths), with `--reasons`. */
const reasons = new Map<string, number>();
let tried = 0;
let extracted = 0;
let compiled = 0;
const failures: string[] = [];
outer: for (const [path, text] of Object.entries(files)) {
  if (!path.endsWith(ext)) continue;
  for (const [a, b] of windows(text)) {
    if (extracted >= max) break outer;
    tried++;
    const ws = await createWorkspace({
      backend: createMemoryBackend(Object.fromEntries(Object.entries(files).map(([k, v]) => [`/${k}`, v]))),
      grammars,
    });
    const name = language === "go" ? `extracted${extracted}` : `extracted_${extracted}`;
    try {
      const plan = await planExtract(
        ws,
        new Stage(ws.fs, ws.sandbox),
        { path, range: { start_line: a, end_line: b }, name, tool: "check" },
      );
      extracted++;
      const result = await compiles(path, plan.text);
      if (result.ok) compiled++;
      else {
        const failure = `${path}:${a}-${b} (${plan.kind} ${name})\n${
          result.output.split("\n").slice(0, 8).join("\n")
        }`;
        failures.push(failure);
        console.log(`--- does not compile: ${failure}`);
      }
      if (extracted % 25 === 0) {
        console.log(`... ${tried} tried, ${extracted} extracted, ${compiled} compile`);
      }
    } catch (e) {
      if (!(e instanceof RecoverableError)) throw e;
      refused.set(e.code, (refused.get(e.code) ?? 0) + 1);
      const why = `${e.code}: ${
        e.message.replace(/^Cannot extract lines \d+-\d+ of "[^"]+"( as "[^"]+")?: /, "").replace(
          /"[^"]*"/g,
          "X",
        )
          .replace(/\d+/g, "N").slice(0, 90)
      }`;
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
  }
}
await Deno.remove(cache, { recursive: true });
console.log(
  `${language}: ${tried} ranges tried, ${extracted} extracted, ${compiled} compile; refused: ${
    JSON.stringify(Object.fromEntries(refused))
  }`,
);
console.log(`${failures.length} do not compile (listed above)`);
if (Deno.args.includes("--reasons")) {
  for (const [why, n] of [...reasons].sort((a, b) => b[1] - a[1])) {
    console.log(`${String(n).padStart(5)} ${why}`);
  }
}
