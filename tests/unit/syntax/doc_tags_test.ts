import assert from "node:assert/strict";
import { docTagNames } from "../../../src/syntax/doc_tags.ts";

/** `role:name@offset` of each name a comment gives. */
function names(comment: string): string[] {
  return docTagNames(comment).map((n) => `${n.role}:${n.name}@${n.offset}`);
}

Deno.test("docTagNames() reads the type names of a tag's type expression (hono's JSDoc)", () => {
  const comment = [
    "/**",
    " * Handle a request: the Context is passed in.",
    " * @param {Context} c - The context.",
    " * @param {Array<Context>|null} [cs] - More.",
    " * @returns {Promise<Hono>} The app.",
    " * @throws {HTTPException} When it fails.",
    " */",
  ].join("\n");
  const found = docTagNames(comment).map((n) =>
    `${n.role}:${comment.slice(n.offset, n.offset + n.name.length)}`
  );
  assert.deepEqual(found, [
    "type:Context",
    "param:c",
    "type:Array",
    "type:Context",
    "type:null",
    "param:cs",
    "type:Promise",
    "type:Hono",
    "type:HTTPException",
  ]);
});

Deno.test("docTagNames() leaves out prose, record keys, properties, strings and the comment's @template names", () => {
  assert.deepEqual(names("/** The Context of a call. */"), [], "prose is text");
  assert.deepEqual(names("/** @type {{Context: number, b?: X}} */"), ["type:number@21", "type:X@33"]);
  assert.deepEqual(
    names('/** @type {import("./context").Context} */'),
    ["type:import@11", "import:Context@31"],
    "the module's export",
  );
  assert.deepEqual(names("/** @type {ns.Context} */"), ["type:ns@11"]);
  assert.deepEqual(names("/** @type {'Context'|\"Hono\"} */"), []);
  assert.deepEqual(names("/**\n * @template {Base} T\n * @param {T} t\n * @returns {Base}\n */"), [
    "type:Base@18",
    "param:t@40",
    "type:Base@55",
  ]);
});

Deno.test("docTagNames() reads {@link x}, @see x and @param x as before, a link inside @see once", () => {
  assert.deepEqual(names("/** See {@link Hono} and {@linkcode app.get}. @see Context */"), [
    "link:Hono@15",
    "link:app@36",
    "link:Context@51",
  ]);
  assert.deepEqual(names("/** @see {@link Context} */"), ["link:Context@16"]);
  assert.deepEqual(names("/** @param [name] optional */"), ["param:name@12"]);
  assert.deepEqual(names("/** @param {unclosed c */"), [], "a brace left open is no type");
});
