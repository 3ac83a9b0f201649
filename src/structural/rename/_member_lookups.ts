/**
 * Members looked up by a name held in a string: `getattr(self, "_handle_" + kind)` reaches every method whose
 * name starts with `_handle_`, and no binding says which. A rename of such a member would leave the lookup
 * missing it at run time with nothing to tell (CPython's `email.generator` dispatches on content types this
 * way). The functions that look members up come from the language's profile (`memberLookupCalls`); a call
 * whose name argument is the member's name itself, or starts with a literal part the name starts with, is a
 * site the rename cannot follow.
 *
 * A data member passed by name as a keyword argument (`policy.clone(refold_source="none")`) is such a site too:
 * the callee may set attributes from its keywords' names.
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import { lineNumberAt } from "../../fs/lines.ts";
import { profileOf } from "../../languages/profiles.ts";

/** A lookup call that may reach the member. */
export interface MemberLookup {
  /** The file. */
  path: string;
  /** 1-based line of the call. */
  line: number;
  /** The call as written (its first line). */
  text: string;
}

/** `f(obj, 'literal'` then `,`/`)` (the whole name), `+` (a prefix), or an f-string's literal head. */
function lookupPattern(functions: readonly string[]): RegExp {
  const names = functions.map((f) => f.replace(/[^\w]/g, "")).join("|");
  return new RegExp(
    String.raw`\b(?:${names})\(\s*[^,()]+,\s*(?:(['"])(\w+)\1\s*([,)+])|f(['"])(\w+)\{)`,
    "g",
  );
}

/**
 * The lookups in `files` that may reach a member named `name`.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { memberLookups } from "./_member_lookups.ts";
 *
 * const text = "class G:\n    def run(self, kind):\n        meth = getattr(self, '_handle_' + kind, None)\n";
 * const files = new Map([["g.py", { language: "python", text }]]);
 * assert.deepEqual(memberLookups(files, "_handle_text").map((l) => l.line), [3]);
 * assert.deepEqual(memberLookups(files, "render"), []);
 * ```
 *
 * @param files The files the rename searched: language and text by path.
 * @param name The member's name.
 * @returns Each lookup that may reach it.
 */
export function memberLookups(
  files: ReadonlyMap<string, { language: string; text: string }>,
  name: string,
): MemberLookup[] {
  const out: MemberLookup[] = [];
  for (const [path, file] of files) {
    const calls = profileOf(file.language).functions.memberLookupCalls;
    if (calls.length === 0) continue;
    for (const m of file.text.matchAll(lookupPattern(calls))) {
      const whole = m[2] !== undefined && m[3] !== "+" && m[2] === name;
      const prefix = (m[3] === "+" ? m[2] : m[5]) ?? "";
      if (!whole && !(prefix !== "" && name.startsWith(prefix))) continue;
      const line = lineNumberAt(file.text, m.index!);
      out.push({ path, line, text: file.text.split("\n")[line - 1]!.trim() });
    }
  }
  return out;
}

/** A keyword argument `name=` inside a call's parentheses (not `==`). */
function keywordPattern(name: string): RegExp {
  return new RegExp(String.raw`[(,]\s*${name}\s*=(?!=)`, "g");
}

/**
 * Calls that pass a data member's name as a keyword argument, in languages whose calls name arguments: a
 * constructor or `clone(**kw)` that sets attributes by the keywords' names (`setattr(self, name, value)` after
 * `hasattr(self, name)`, as CPython's email policies do) reaches the member through that keyword, and no
 * binding ties the two. Only class-level data members count: a method's name as a keyword is about something
 * else, and an attribute set in `__init__` from its parameter keeps the parameter's name when renamed.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { keywordSetters } from "./_member_lookups.ts";
 *
 * const policy = "class P(Base):\n    refold = 'long'\n";
 * const test = "p = P().clone(refold='none')\nq = f(refold == 1)\n";
 * const files = new Map([["p.py", { language: "python", text: policy }], ["t.py", { language: "python", text: test }]]);
 * assert.deepEqual(keywordSetters(files, { name: "refold", path: "p.py", line: 2 }).map((l) => l.path + ":" + l.line), ["t.py:1"]);
 * ```
 *
 * @param files The files the rename searched: language and text by path.
 * @param member The member: its name and the file and 1-based line that declare it.
 * @returns Each call that passes it by keyword (empty for a method or a language without keyword arguments).
 */
export function keywordSetters(
  files: ReadonlyMap<string, { language: string; text: string }>,
  member: { name: string; path: string; line: number },
): MemberLookup[] {
  const declaring = files.get(member.path);
  const declaration = declaring?.text.split("\n")[member.line - 1] ?? "";
  if (!new RegExp(String.raw`^\s*${member.name}\s*[:=]`).test(declaration)) return [];
  const out: MemberLookup[] = [];
  for (const [path, file] of files) {
    if (!profileOf(file.language).functions.keywordArguments) continue;
    for (const m of file.text.matchAll(keywordPattern(member.name))) {
      const line = lineNumberAt(file.text, m.index!);
      out.push({ path, line, text: file.text.split("\n")[line - 1]!.trim() });
    }
  }
  return out;
}

/**
 * The refusal of a rename whose member a lookup by name may reach.
 *
 * @param name The member's name.
 * @param lookups The lookups ({@linkcode memberLookups}).
 * @returns `unresolved`, naming each lookup.
 */
export function lookedUpByName(name: string, lookups: readonly MemberLookup[]): RecoverableError {
  const where = lookups.slice(0, 5).map((l) => `${l.path}:${l.line} (${l.text})`).join("; ");
  return new RecoverableError(
    "unresolved",
    `Cannot rename "${name}": code looks members up by a name built at run time, or passes the name as a keyword argument a callee may set it from, that may be this one (${where}${
      lookups.length > 5 ? `; and ${lookups.length - 5} more` : ""
    }), and a rename would leave that lookup missing it`,
    {
      hint:
        "Rename it by hand together with the code that builds the name (edit_file), or leave the name; read the lookup first (read_file at the line named)",
      details: { name, lookups },
      suggestedCall: { tool: "read_file", args: { path: lookups[0]!.path, start_line: lookups[0]!.line } },
    },
  );
}
