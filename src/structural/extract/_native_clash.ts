/**
 * Go and Rust names an extracted function must not take: a package-level
 * name of any file of the Go package (or a builtin they use), and for a
 * method any field or method of that name in the package (Go) or any
 * member or `.name(…)` call in the crate (Rust) — an inherent method would
 * take such calls over from a trait.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import type { Parsing } from "../../syntax/types.ts";
import { type Context, details } from "./_context.ts";
import type { Placement } from "./_placement.ts";
import { ProjectFiles } from "../shared/project_files.ts";
import { nativeFamilyOf } from "./_native.ts";

/**
 * Go and Rust: refuse a name another file already uses where the new function goes — a package-level name in
 * any file of the Go package (or a builtin it uses), and for a method any field or method of that name in the
 * package (Go) or crate (Rust; also a call `.name(…)`, which an inherent method would take over from a trait).
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param ctx The extraction.
 * @param placement Where the new function goes.
 */
export async function checkNativeClash(
  parsing: Parsing,
  stage: Stage,
  { ctx, placement }: { ctx: Context; placement: Placement },
): Promise<void> {
  const { fb, name } = ctx;
  const method = placement.kind === "method";
  if (!profileOf(fb.language).moduleSystem?.moduleIsDirectory && !method) return; // the file's own module scope: checkClash
  const project = new ProjectFiles(parsing, stage);
  await project.open();
  const clash = (path: string, text: string, offset: number, why: string): never => {
    const line = text.slice(0, offset).split("\n").length;
    throw new RecoverableError(
      "name_clash",
      `Cannot extract ${ctx.where} as "${name}": ${why} (${path}:${line})`,
      { hint: "Choose another name", details: details(ctx, { name, clash_path: path, clash_line: line }) },
    );
  };
  const files = profileOf(fb.language).moduleSystem?.moduleIsDirectory
    ? [fb.path, ...await project.sharedScopes(fb)]
    : [...project.files].filter(([, l]) => l === fb.language).map(([rel]) => rel);
  const memberKinds = new Set(["member_definition", "member_this", "member_property"]);
  const native = nativeFamilyOf(ctx.rules);
  for (const rel of files) {
    const t = await project.text(rel);
    if (!t || !new RegExp(`(?<![\\p{L}\\p{N}_])${name}(?![\\p{L}\\p{N}_])`, "u").test(t.text)) continue;
    const other = rel === fb.path ? fb : await project.bindings(rel);
    if (!other) continue;
    for (const o of other.occurrences) {
      if (o.name !== name) continue;
      if (method) {
        if (memberKinds.has(o.kind) && native.memberClashes(o.kind)) {
          clash(rel, t.text, o.start, `a field or method named "${name}" is declared or called there`);
        }
        continue;
      }
      if (rel === fb.path) continue;
      if (o.kind === "definition" && o.binding?.scope === other.scopes[0]) {
        clash(rel, t.text, o.start, `the package already declares "${name}"`);
      }
      if (o.kind === "reference" && (o.binding === null || o.binding.linked)) {
        clash(rel, t.text, o.start, `"${name}" is used there as a package-level or builtin name`);
      }
    }
  }
}
