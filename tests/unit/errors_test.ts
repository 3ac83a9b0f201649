import assert from "node:assert/strict";
import { isRecoverable, RecoverableError } from "../../src/errors.ts";

const SUGGESTED = { tool: "read_file", args: { path: "a.ts" } };

Deno.test("RecoverableError() keeps code, message, hint and details, and is an Error", () => {
  const err = new RecoverableError("stale_base", 'Cannot commit "a.ts": file changed', {
    hint: "Read the file again and retry with its new version",
    suggestedCall: SUGGESTED,
    details: { path: "a.ts" },
  });
  assert.ok(err instanceof Error);
  assert.equal(err.name, "RecoverableError");
  assert.equal(err.code, "stale_base");
  assert.equal(err.message, 'Cannot commit "a.ts": file changed');
  assert.equal(err.hint, "Read the file again and retry with its new version");
  assert.equal(err.suggestedCall, SUGGESTED);
  assert.deepEqual(err.details, { path: "a.ts" });
  assert.equal(err.caller, undefined);
});

Deno.test("RecoverableError.toJSON() has only code, message and hint when nothing else was given", () => {
  const err = new RecoverableError("not_found", 'Cannot read "b.ts": no such file', {
    hint: "List the directory",
  });
  assert.deepEqual(err.toJSON(), {
    code: "not_found",
    message: 'Cannot read "b.ts": no such file',
    hint: "List the directory",
  });
  assert.deepEqual(Object.keys(err.toJSON()), ["code", "message", "hint"]);
});

Deno.test("RecoverableError.toJSON() names suggested_call and details in wire case, never the cause", () => {
  const cause = new Error("EACCES");
  const err = new RecoverableError("internal", "Cannot write", {
    hint: "Retry",
    suggestedCall: SUGGESTED,
    details: { path: "a.ts", lines: [1, 2] },
    cause,
  });
  const json = err.toJSON();
  assert.deepEqual(json, {
    code: "internal",
    message: "Cannot write",
    hint: "Retry",
    suggested_call: SUGGESTED,
    details: { path: "a.ts", lines: [1, 2] },
  });
  assert.deepEqual(JSON.parse(JSON.stringify(err)), json);
  assert.equal("suggestedCall" in json, false);
});

Deno.test("RecoverableError() keeps the cause it wraps, and has none when given none", () => {
  const cause = new TypeError("disk on fire");
  assert.equal(new RecoverableError("internal", "Cannot commit", { hint: "Retry", cause }).cause, cause);
  const bare = new RecoverableError("internal", "Cannot commit", { hint: "Retry" });
  assert.equal("cause" in bare, false);
});

Deno.test("isRecoverable() matches any RecoverableError, or only the given code", () => {
  const err = new RecoverableError("ambiguous", "Cannot edit", { hint: "Add context" });
  assert.equal(isRecoverable(err), true);
  assert.equal(isRecoverable(err, "ambiguous"), true);
  assert.equal(isRecoverable(err, "no_match"), false);
});

Deno.test("isRecoverable() is false for plain errors and look-alike objects", () => {
  assert.equal(isRecoverable(new Error("ambiguous")), false);
  assert.equal(isRecoverable({ code: "ambiguous", message: "x", hint: "y" }, "ambiguous"), false);
  assert.equal(isRecoverable(null), false);
  assert.equal(isRecoverable(undefined, "internal"), false);
});
