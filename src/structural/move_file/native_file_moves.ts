/**
 * Whether moving a Go or Rust file keeps the code that names it building.
 * graver rewrites no Go package paths or Rust `mod` declarations, so a move
 * is answered only when the file's name does not carry its identity: a Go
 * file that stays in its directory (its package) with the same role in its
 * name (`_test`, `_linux`, `_amd64`, a leading `_` or `.`), and a Rust file
 * that cargo finds by its directory (`tests/`, `examples/`, `benches/`,
 * `src/bin/`). Any other Rust file is a module: `mod x;` (or Cargo, for
 * `lib.rs`/`main.rs`) names it by its path, and moving it would leave that
 * name pointing at nothing.
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import { isRustTargetFile } from "../../syntax/module_resolution.ts";

/** GOOS and GOARCH values a Go file name's suffix may carry (`x_linux.go`, `x_windows_amd64.go`). */
const GO_BUILD_TAGS = new Set([
  "aix",
  "android",
  "darwin",
  "dragonfly",
  "freebsd",
  "hurd",
  "illumos",
  "ios",
  "js",
  "linux",
  "nacl",
  "netbsd",
  "openbsd",
  "plan9",
  "solaris",
  "wasip1",
  "windows",
  "zos",
  "386",
  "amd64",
  "amd64p32",
  "arm",
  "armbe",
  "arm64",
  "arm64be",
  "loong64",
  "mips",
  "mipsle",
  "mips64",
  "mips64le",
  "mips64p32",
  "mips64p32le",
  "ppc",
  "ppc64",
  "ppc64le",
  "riscv",
  "riscv64",
  "s390",
  "s390x",
  "sparc",
  "sparc64",
  "wasm",
]); // deno-fmt-ignore

const dirOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);
const baseOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** What a Go file's name tells the go tool: ignored, a test, and the build tags of its suffix. */
function goFileRole(path: string): string {
  const base = baseOf(path);
  const parts = base.replace(/\.go$/, "").split("_");
  const test = parts.length > 1 && parts.at(-1) === "test" ? parts.pop() : "";
  const tags: string[] = [];
  while (parts.length > 1 && GO_BUILD_TAGS.has(parts.at(-1)!) && tags.length < 2) tags.unshift(parts.pop()!);
  return `${/^[_.]/.test(base) ? "ignored" : ""}|${test}|${tags.join("_")}`;
}

/** Options of {@link nativeMoveRefusal}. */
export interface NativeMove {
  /** The file's language id. */
  language: string;
  /** Source path (relative). */
  from: string;
  /** Destination path (relative). */
  to: string;
}

/**
 * The refusal of a Go or Rust file move that would break what names the file, or null when the move is safe
 * (or the file is of another language).
 *
 * @param move The language and both paths.
 * @returns The error to throw, or null.
 */
export function nativeMoveRefusal(move: NativeMove): RecoverableError | null {
  const { language, from, to } = move;
  const sameDir = dirOf(from) === dirOf(to);
  let why: string | null = null;
  if (language === "go") {
    if (!sameDir) {
      why = "a Go file's directory is its package, and graver does not rewrite the package's importers";
    } else if (goFileRole(from) !== goFileRole(to)) {
      why =
        "the new name changes how the go tool reads the file (a `_test`, GOOS/GOARCH suffix, or a leading `_`/`.`)";
    }
  } else if (language === "rust" && !(sameDir && isRustTargetFile(from) && isRustTargetFile(to))) {
    why = /(?:^|\/)(?:lib|main)\.rs$/.test(from)
      ? "it is a crate root that Cargo finds by this path"
      : "it is a module that a `mod` declaration (or Cargo) names by its path, and graver does not rewrite `mod` declarations or `use` paths";
  }
  if (why === null) return null;
  return new RecoverableError("unsupported_language", `Cannot move "${from}" to "${to}": ${why}`, {
    hint: language === "rust"
      ? 'Keep the file where it is, or pass update_imports: false to move the bytes only and then point its `mod` declaration at the new file (`#[path = "…"]`) yourself'
      : "Keep the file in its directory with the same suffixes, or pass update_imports: false to move the bytes only and update its package clause and importers yourself",
    details: { from, to, language },
  });
}
