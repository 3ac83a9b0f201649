/**
 * ast-grep's `rewriters`: named sub-rules, each with its own `fix`, that a `rewrite` transformation applies to
 * the nodes under a metavariable — `transform: {NEW: {rewrite: {source: $$$ARGS, rewriters: [a, b],
 * joinBy: ", "}}}`. Under each node the metavariable bound, every node is tried in document order (the node
 * itself first), each against the rewriters in the order the transformation lists them: the first that matches
 * gives that node's new text, its `fix` filled with what its rule bound (and what the enclosing match bound:
 * a name both bind must be the same code). A node inside one already rewritten is left (the outer one wins), and
 * not even tried. Bounded: {@linkcode MAX_REWRITER_TRIES} tries and {@linkcode MAX_REWRITE_DEPTH} nested
 * rewrites a site.
 * The new value is the bound text with those nodes replaced — or, with `joinBy`, only the new texts, joined.
 * A rewriter has its own `constraints`, `utils` and `transform` (whose `rewrite` may name the rewriters of the
 * same list, itself too: a rewriter may recurse into the nodes it matched).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Binding } from "../edit/pattern.ts";
import { nodeFacts } from "../edit/node_facts.ts";
import { type CompiledRule, compileRule, type GrammarKinds, type RegexCompiler } from "./rule_compile.ts";
import type { CompiledPattern } from "../edit/pattern.ts";
import type { PatternInContext } from "../edit/pattern_compile.ts";
import {
  boundNames,
  type CompiledTransform,
  compileTransform,
  type RewriteMaker,
  type TransformContext,
  withTransformed,
} from "./transform.ts";

/** One rewriter, compiled. */
export interface CompiledRewriter {
  id: string;
  rule: CompiledRule;
  fix: string;
  transforms: CompiledTransform[];
}

/** Rewriter matches one site may try (rewriters over every node of a large binding). */
export const MAX_REWRITER_TRIES = 200_000;

/** Rewrites one rewrite may make inside another (a rewriter that recurses into a deep nesting). */
export const MAX_REWRITE_DEPTH = 256;

/** Keys a rewriter takes. */
const KEYS = ["id", "rule", "fix", "constraints", "utils", "transform"];

/** A refusal of the rewriters at `where`. */
function bad(where: string, message: string, hint: string): RecoverableError {
  return new RecoverableError("invalid_args", `Cannot use the rewriters: ${where} ${message}`, {
    hint,
    details: { at: where },
  });
}

/** One rewriter's id, rule, fix and the rest, checked. */
function rewriterParts(value: unknown, where: string): Record<string, unknown> & { id: string; fix: string } {
  const example = 'Pass e.g. [{"id": "num", "rule": {"kind": "number"}, "fix": "N($$$X)"}]';
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw bad(where, "must be an object with id, rule and fix", example);
  }
  const r = value as Record<string, unknown>;
  for (const key of Object.keys(r)) {
    if (!KEYS.includes(key)) {
      throw bad(`${where}.${key}`, "is not a key of a rewriter", `A rewriter takes ${KEYS.join(", ")}`);
    }
  }
  if (typeof r["id"] !== "string" || r["id"] === "") throw bad(`${where}.id`, "must be a name", example);
  if (typeof r["fix"] !== "string") throw bad(`${where}.fix`, "must be the new code, a string", example);
  if (typeof r["rule"] !== "object" || r["rule"] === null || Array.isArray(r["rule"])) {
    throw bad(`${where}.rule`, "must be a rule object", example);
  }
  return r as Record<string, unknown> & { id: string; fix: string };
}

/**
 * Compile a query's rewriters (each rule compiled as a rule at the top is, its transform with the rewriters of
 * the list at hand).
 *
 * @param raw The `rewriters` list, as given.
 * @param on How to compile a pattern, the grammar's kinds, and the names the enclosing match binds.
 * @returns The rewriters by id.
 * @throws RecoverableError `invalid_args` for a malformed rewriter, a repeated id, or a rule or transform a
 *   rewriter cannot use; `invalid_query` for a kind the grammar does not have.
 */
export function compileRewriters(
  raw: unknown,
  on: {
    pattern: (source: string | PatternInContext) => CompiledPattern;
    kinds: GrammarKinds | undefined;
    enclosing: ReadonlySet<string>;
    /** Compiles a rule's `regex` and a transformation's `replace` (`compileRe2`). */
    regex?: RegexCompiler | undefined;
  },
): Map<string, CompiledRewriter> {
  if (!Array.isArray(raw)) {
    throw bad(
      "rewriters",
      "must be a list of rewriters",
      'Pass e.g. [{"id": "num", "rule": {"kind": "number"}, "fix": "0"}]',
    );
  }
  const out = new Map<string, CompiledRewriter>();
  const rewrite = rewriteOf(out);
  for (const [i, value] of raw.entries()) {
    const where = `rewriters[${i}]`;
    const r = rewriterParts(value, where);
    if (out.has(r.id)) throw bad(`${where}.id`, `repeats "${r.id}"`, "Give each rewriter its own id");
    const ruleObject = { ...r["rule"] as Record<string, unknown> };
    if (r["constraints"] !== undefined) ruleObject["constraints"] = r["constraints"];
    if (r["utils"] !== undefined) ruleObject["utils"] = r["utils"];
    const rule = compileRule(ruleObject, on.pattern, { kinds: on.kinds, regex: on.regex });
    // Its placeholder first: a rewriter's transform may name itself (a recursive rewrite).
    const compiled: CompiledRewriter = { id: r.id, rule, fix: r.fix, transforms: [] };
    out.set(r.id, compiled);
    if (r["transform"] !== undefined) {
      const bound = new Set([...on.enclosing, ...boundNames({ rule: ruleObject })]);
      compiled.transforms = compileTransform(r["transform"], bound, { rewrite, regex: on.regex });
    }
  }
  return out;
}

/** A `rewrite` transformation's spec: the rewriters it names and how to join. */
interface RewriteSpec {
  rewriters: string[];
  joinBy?: string;
}

/**
 * How a `rewrite` transformation of this list is made: its spec checked (every rewriter named is in the list),
 * and its value computed from the nodes its source bound.
 *
 * @param rewriters The list's rewriters by id (filled as they compile: a rewriter may name a later one).
 * @returns What `compileTransform` calls for a `rewrite`.
 */
export function rewriteOf(rewriters: ReadonlyMap<string, CompiledRewriter>): RewriteMaker {
  return (spec, where) => {
    const names = spec["rewriters"];
    if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === "string")) {
      throw bad(`${where}.rewriters`, "must list rewriter ids", 'Pass e.g. "rewriters": ["num"]');
    }
    const joinBy = spec["joinBy"];
    if (joinBy !== undefined && typeof joinBy !== "string") {
      throw bad(`${where}.joinBy`, "must be a string", 'Pass e.g. "joinBy": ", "');
    }
    const checked: RewriteSpec = {
      rewriters: names as string[],
      ...(joinBy === undefined ? {} : { joinBy }),
    };
    return (from, ctx) => {
      for (const id of checked.rewriters) {
        if (!rewriters.has(id)) {
          throw bad(
            `${where}.rewriters`,
            `names "${id}", which the rewriters do not define`,
            "Define it in rewriters",
          );
        }
      }
      return rewritten(from, { ctx, spec: checked, rewriters });
    };
  };
}

/** One node's new text: where it is, and what it becomes. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The value of a `rewrite`: the bound text with its rewritten nodes replaced, or their new texts joined. */
function rewritten(
  from: Binding,
  on: { ctx: TransformContext; spec: RewriteSpec; rewriters: ReadonlyMap<string, CompiledRewriter> },
): string | undefined {
  if (from.nodes.length === 0) return undefined; // a transformed value: no nodes to rewrite
  const edits: Edit[] = [];
  for (const node of from.nodes) collectEdits(node, on, edits);
  const kept: Edit[] = [];
  for (const e of edits) if (kept.length === 0 || e.start >= kept.at(-1)!.end) kept.push(e); // the outer wins
  if (on.spec.joinBy !== undefined) return kept.map((e) => e.text).join(on.spec.joinBy);
  let out = "";
  let at = from.start;
  for (const e of kept) {
    out += on.ctx.text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + on.ctx.text.slice(at, from.end);
}

/** The edits of the rewriters under one node, in document order (a node before the nodes inside it). */
function collectEdits(
  root: Node,
  on: { ctx: TransformContext; spec: RewriteSpec; rewriters: ReadonlyMap<string, CompiledRewriter> },
  edits: Edit[],
): void {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const edit = editAt(node, on);
    if (edit !== null) {
      edits.push(edit);
      continue; // an edit of a node inside it would be dropped (the outer wins): not made at all
    }
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child) stack.push(child);
    }
  }
}

/** The first listed rewriter that matches `node` (consistently with the enclosing match), as an edit. */
function editAt(
  node: Node,
  on: { ctx: TransformContext; spec: RewriteSpec; rewriters: ReadonlyMap<string, CompiledRewriter> },
): Edit | null {
  const { ctx } = on;
  for (const id of on.spec.rewriters) {
    if (++ctx.tries.count > MAX_REWRITER_TRIES) throw tooManyTries();
    const rewriter = on.rewriters.get(id)!;
    const own = ctx.matchAt(rewriter.rule, node);
    if (own === null || !agrees(own, ctx.enclosing)) continue;
    const merged = { ...ctx.enclosing, ...own };
    if (++ctx.tries.depth > MAX_REWRITE_DEPTH) throw tooDeep();
    let bindings: Record<string, Binding>;
    try {
      bindings = withTransformed(rewriter.transforms, merged, { ...ctx, bindings: merged });
    } finally {
      ctx.tries.depth--;
    }
    return {
      start: node.startIndex,
      end: nodeFacts(node).end,
      text: ctx.fill(rewriter.fix, node.startIndex, bindings),
    };
  }
  return null;
}

/** Whether a name bound by both the rewriter's match and the enclosing one is the same code in both. */
function agrees(own: Record<string, Binding>, enclosing: Record<string, Binding>): boolean {
  for (const [name, b] of Object.entries(own)) {
    const outer = enclosing[name];
    if (outer !== undefined && outer.text !== b.text) return false;
  }
  return true;
}

/** The refusal of a rewrite nested past {@linkcode MAX_REWRITE_DEPTH} (each level is a call on the stack). */
function tooDeep(): RecoverableError {
  return new RecoverableError(
    "limit_exceeded",
    `Cannot rewrite: the rewriters recurse more than ${MAX_REWRITE_DEPTH} levels deep for one site`,
    {
      hint: "Rewrite a shallower part of the code, or narrow the recursive rewriter's rule",
      details: { limit: MAX_REWRITE_DEPTH },
    },
  );
}

/** The refusal of a rewrite that tries too many matches. */
function tooManyTries(): RecoverableError {
  return new RecoverableError(
    "limit_exceeded",
    `Cannot rewrite: the rewriters tried more than ${MAX_REWRITER_TRIES} matches for one site`,
    {
      hint: "Narrow the rewriters' rules (a kind, a pattern), or the metavariable they rewrite",
      details: { limit: MAX_REWRITER_TRIES },
    },
  );
}
