/**
 * Personas: named agent configurations (`.graver/personas/NAME.json`, or
 * passed by the embedder) holding at least `edit_strategy.prefer` and which
 * reminder providers they enable.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { BackendFs } from "../fs/backend.ts";
import { INTERNAL_DIR, type Sandbox } from "../fs/sandbox.ts";
import type { CompassMode, Persona } from "./types.ts";

/** Where personas live, relative to the workspace root. */
export const PERSONA_DIR = `${INTERNAL_DIR}/personas`;

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const MODES: readonly CompassMode[] = ["off", "suggest", "rewrite"];

function bad(name: string, what: string): RecoverableError {
  return new RecoverableError("invalid_args", `Cannot use persona "${name}": ${what}`, {
    hint:
      'A persona is a JSON object like {"edit_strategy": {"prefer": ["edit_apply_node"]}, "reminders": {"providers": {"compass_ast_edits": true}}}',
    details: { persona: name },
  });
}

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/**
 * Check a persona object and give it its name.
 *
 * @param value The parsed JSON.
 * @param name The persona's name (a `name` field inside wins).
 * @returns The persona.
 * @throws `invalid_args` naming the field that is wrong.
 *
 * @example
 * ```ts
 * import { parsePersona } from "./persona.ts";
 * import assert from "node:assert/strict";
 *
 * const p = parsePersona({ edit_strategy: { prefer: ["edit_apply_node"] } }, "fixer");
 * assert.equal(p.name, "fixer");
 * assert.deepEqual(p.edit_strategy?.prefer, ["edit_apply_node"]);
 * assert.throws(() => parsePersona({ edit_strategy: { prefer: "x" } }, "fixer"), { code: "invalid_args" });
 * ```
 */
export function parsePersona(value: unknown, name: string): Persona {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw bad(name, "not a JSON object");
  }
  const v = value as Record<string, unknown>;
  const out: Persona = { name: typeof v["name"] === "string" && v["name"] !== "" ? v["name"] : name };
  const strategy = v["edit_strategy"];
  if (strategy !== undefined) {
    const prefer = (strategy as Record<string, unknown> | null)?.["prefer"];
    if (strategy === null || typeof strategy !== "object" || (prefer !== undefined && !stringList(prefer))) {
      throw bad(name, "edit_strategy.prefer must be a list of tool names");
    }
    out.edit_strategy = prefer === undefined ? {} : { prefer };
  }
  const reminders = v["reminders"];
  if (reminders !== undefined) {
    const providers = (reminders as Record<string, unknown> | null)?.["providers"];
    if (
      reminders === null || typeof reminders !== "object" ||
      (providers !== undefined &&
        (providers === null || typeof providers !== "object" ||
          Object.values(providers).some((b) => typeof b !== "boolean")))
    ) {
      throw bad(name, "reminders.providers must map provider ids to true or false");
    }
    out.reminders = providers === undefined ? {} : { providers: providers as Record<string, boolean> };
  }
  const compass = v["compass"];
  if (compass !== undefined) {
    const mode = (compass as Record<string, unknown> | null)?.["mode"];
    if (
      compass === null || typeof compass !== "object" ||
      (mode !== undefined && !MODES.includes(mode as never))
    ) {
      throw bad(name, `compass.mode must be one of ${MODES.join(", ")}`);
    }
    out.compass = mode === undefined ? {} : { mode: mode as CompassMode };
  }
  return out;
}

/**
 * Read `.graver/personas/NAME.json` under the workspace root.
 *
 * @param fs The backend.
 * @param sandbox The workspace root mapping.
 * @param name The persona's name.
 * @returns The persona.
 * @throws `invalid_args` for a bad name or file, `not_found` (listing the personas there) when absent.
 */
export async function loadPersona(fs: BackendFs, sandbox: Sandbox, name: string): Promise<Persona> {
  if (!NAME.test(name)) throw bad(name, "a persona name is letters, digits, '_', '.' and '-'");
  const dir = sandbox.abs(PERSONA_DIR);
  const bytes = await fs.read(`${dir}/${name}.json`);
  if (bytes === null) {
    const known = (await fs.list(dir).catch(() => [] as string[]))
      .filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
    throw new RecoverableError("not_found", `Cannot use persona "${name}": no ${PERSONA_DIR}/${name}.json`, {
      hint: known.length > 0
        ? `Known personas: ${known.join(", ")}`
        : `Create ${PERSONA_DIR}/${name}.json in the workspace root, or pass the persona object itself`,
      details: { persona: name, known },
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw bad(
      name,
      `${PERSONA_DIR}/${name}.json is not valid JSON (${err instanceof Error ? err.message : err})`,
    );
  }
  return parsePersona(parsed, name);
}
