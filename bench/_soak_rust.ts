/**
 * The refactor soak's Rust corpus: the `semver` 1.0.14 and `smallvec` 1.9.0
 * crates from Debian's packages (`apt-get install librust-semver-dev
 * librust-smallvec-dev`; sources under /usr/share/cargo/registry), built with
 * the `cargo` on PATH, made one cargo workspace whose dependencies come from
 * Debian's registry directory (a `.cargo/config.toml` source replacement), so
 * nothing is fetched. The checker is `cargo check --offline --workspace --lib
 * --tests` with every feature stable Rust builds (semver's `serde`, smallvec's
 * `write`, `const_generics`, `const_new`, `union`, `arbitrary`): library,
 * unit tests and integration tests type-checked, incrementally (one target
 * directory outside the tree, kept across trials). Damage is an error.
 *
 * smallvec's `bincode` dev-dependency (used only by its serde tests, which
 * this build leaves off) is dropped: Debian does not package it. Benches need
 * nightly Rust and are not built; `smallvec/src/specialization.rs` (nightly
 * only) is not refactored.
 *
 * @module
 */
import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { commitBase, copySource, type NativeCorpus, requireToolchain, runChecker } from "./_soak_native.ts";

const REGISTRY = "/usr/share/cargo/registry";
const CRATES = ["semver-1.0.14", "smallvec-1.9.0"];
const FEATURES = [
  "semver/serde",
  "smallvec/write",
  "smallvec/const_generics",
  "smallvec/const_new",
  "smallvec/union",
  "smallvec/arbitrary",
];

/**
 * Lay the crates out in `dir` as one cargo workspace, check it once (the baseline must be clean) and commit it.
 *
 * @param dir An empty directory; the target directory goes beside it (`dir` + `-target`).
 * @returns The corpus.
 * @throws MissingToolchain when cargo or the crates are not installed.
 */
export async function rustCorpus(dir: string): Promise<NativeCorpus> {
  await requireToolchain(
    "cargo (rustup or `apt-get install cargo`) and `apt-get install librust-semver-dev librust-smallvec-dev`",
    ["cargo", "--version"],
    CRATES.map((c) => join(REGISTRY, c)),
  );
  const members = CRATES.map((c) => c.replace(/-[\d.]+$/, ""));
  for (const [i, crate] of CRATES.entries()) await copySource(join(REGISTRY, crate), join(dir, members[i]!));
  for (const m of members) await fsp.rm(join(dir, m, ".cargo-checksum.json"), { force: true });
  const manifest = join(dir, "smallvec/Cargo.toml");
  await fsp.writeFile(
    manifest,
    (await fsp.readFile(manifest, "utf8")).replace(/\[dev-dependencies\.bincode\]\n[^\n]*\n/, ""),
  );
  await fsp.writeFile(join(dir, "Cargo.toml"), `[workspace]\nmembers = ${JSON.stringify(members)}\n`);
  await fsp.mkdir(join(dir, ".cargo"));
  await fsp.writeFile(
    join(dir, ".cargo/config.toml"),
    `[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "${REGISTRY}"\n`,
  );
  const check = () =>
    runChecker({
      command: [
        "cargo",
        "check",
        "--offline",
        "--workspace",
        "--lib",
        "--tests",
        "--message-format",
        "short",
        "--features",
        FEATURES.join(","),
      ],
      cwd: dir,
      env: { CARGO_TARGET_DIR: `${dir}-target`, CARGO_TERM_COLOR: "never" },
      keep: /\berror(\[|:)/,
    });
  const baseline = check(); // also writes Cargo.lock, committed with the rest
  if (baseline.length > 0) {
    throw new Error(`the Rust corpus does not build before any change:\n${baseline.join("\n")}`);
  }
  commitBase(dir);
  return {
    name: `${CRATES.join(" + ")} (cargo check --lib --tests)`,
    language: "rust",
    editable: (rel) => /^\w+\/(src|tests)\/.*\.rs$/.test(rel) && !rel.endsWith("specialization.rs"),
    check,
    rename: (name) => `${name}_soak`,
    sibling: (rel, stem) => `${rel.slice(0, rel.lastIndexOf("/") + 1)}${stem}.rs`,
  };
}
