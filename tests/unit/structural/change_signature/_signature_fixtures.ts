/** Shared helpers of the change-signature tests: plan on a fresh stage, read a planned file, expect a refusal. @module */
import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import {
  type ParamEntry,
  planChangeSignature,
  type SignaturePlan,
} from "../../../../src/structural/change_signature/signature.ts";
import type { Workspace } from "../../../../src/workspace.ts";

/** The plan's new text of a file. */
export function after(plan: SignaturePlan, path: string): Promise<string> {
  return plan.stage.readText(path).then((f) => f.text);
}

/** Plan a signature change on a fresh stage of `ws`. */
export function plan(
  ws: Workspace,
  path: string,
  target: string,
  params: (ParamEntry | string)[],
  includeUnresolved = false,
): Promise<SignaturePlan> {
  return planChangeSignature(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    target,
    entries: params,
    tool: "test",
    includeUnresolved,
  });
}

/** The RecoverableError a promise rejects with (with a hint); fails the test when it resolves. */
export async function refusal(p: Promise<unknown>): Promise<RecoverableError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof RecoverableError, String(e));
    assert.ok(e.hint.length > 0);
    return e;
  }
  assert.fail("expected a refusal");
}
