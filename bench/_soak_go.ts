/**
 * The refactor soak's Go corpus: the `github.com/google/go-cmp` module from
 * Debian's packages (`apt-get install golang-go
 * golang-github-google-go-cmp-dev`; sources under /usr/share/gocode/src),
 * checked with the `go` on PATH and nothing fetched (`GOPROXY=off`,
 * `GOFLAGS=-mod=mod`, `GOTOOLCHAIN=local`). The checker is `go vet ./...`:
 * every package and its tests type-checked, and vet's analyses, with
 * `composites` and `structtag` off because go-cmp's own tests trip them
 * before any change. Damage is a type error or a vet finding. `go test` is
 * not run: go-cmp's tests compare printed reports, which spell type and field
 * names, against golden text, so a correct rename of such a name fails them.
 *
 * @module
 */
import { commitBase, copySource, type NativeCorpus, requireToolchain, runChecker } from "./_soak_native.ts";

const SOURCE = "/usr/share/gocode/src/github.com/google/go-cmp";

/**
 * Copy go-cmp into `dir`, vet it once (the baseline must be clean) and commit it.
 *
 * @param dir An empty directory.
 * @returns The corpus.
 * @throws MissingToolchain when go or go-cmp's sources are not installed.
 */
export async function goCorpus(dir: string): Promise<NativeCorpus> {
  await requireToolchain("`apt-get install golang-go golang-github-google-go-cmp-dev`", ["go", "version"], [
    SOURCE,
  ]);
  await copySource(SOURCE, dir);
  const check = () =>
    runChecker({
      command: ["go", "vet", "-composites=false", "-structtag=false", "./..."],
      cwd: dir,
      env: { GOFLAGS: "-mod=mod", GOPROXY: "off", GO111MODULE: "on", GOTOOLCHAIN: "local" },
      keep: /\.go:\d+/,
    });
  const baseline = check();
  if (baseline.length > 0) throw new Error(`go-cmp does not vet before any change:\n${baseline.join("\n")}`);
  commitBase(dir);
  return {
    name: `${SOURCE.slice(SOURCE.indexOf("github.com"))} (go vet)`,
    language: "go",
    editable: (rel) => rel.endsWith(".go") && !rel.includes("testdata/"),
    check,
    rename: (name) => `${name}Soak`,
    // `_test` (like `_linux`) is the file's role, not its name: it stays last.
    sibling: (rel, stem) =>
      `${rel.slice(0, rel.lastIndexOf("/") + 1)}${stem.replace(/_test(_\w+)$/, "$1_test")}.go`,
  };
}
