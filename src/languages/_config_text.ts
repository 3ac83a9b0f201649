/**
 * Reading one value out of a configuration file's text without a full
 * parser: a TOML string, an INI value, tsconfig's `compilerOptions.target`.
 * Private to `src/languages/`: the target-version facts of the profiles read
 * their declarations with these.
 *
 * @module
 */

/**
 * A string value `key = "..."` in a TOML table (`[table]`).
 *
 * @param text The file's text.
 * @param table The table's dotted name.
 * @param key The key.
 * @returns The value, or null.
 */
export function tomlString(text: string, table: string, key: string): string | null {
  let current = "";
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\][]+)\]\s*(?:#.*)?$/.exec(line);
    if (header) {
      current = header[1]!.trim().replace(/\s*\.\s*/g, ".").replace(/"/g, "");
      continue;
    }
    if (current !== table) continue;
    const m = /^\s*"?([\w.-]+)"?\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(line);
    if (m && m[1] === key) return m[2] ?? m[3] ?? null;
  }
  return null;
}

/**
 * A value `key = value` in an INI section (setup.cfg).
 *
 * @param text The file's text.
 * @param section The section's name.
 * @param key The key.
 * @returns The value, or null.
 */
export function iniValue(text: string, section: string, key: string): string | null {
  let current = "";
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header) {
      current = header[1]!.trim();
      continue;
    }
    if (current !== section) continue;
    const m = /^\s*([\w.-]+)\s*[=:]\s*(.*?)\s*$/.exec(line);
    if (m && m[1] === key && m[2] !== "") return m[2]!;
  }
  return null;
}

/**
 * `compilerOptions.target` of a tsconfig/jsconfig (JSON with comments and trailing commas).
 *
 * @param text The file's text.
 * @returns The target as written, or null.
 */
export function jsonTarget(text: string): string | null {
  const plain = text.replace(
    /"(?:[^"\\]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
    (m) => m.startsWith('"') ? m : "",
  )
    .replace(/,(\s*[}\]])/g, "$1");
  try {
    const target = (JSON.parse(plain) as { compilerOptions?: { target?: unknown } }).compilerOptions?.target;
    return typeof target === "string" ? target : null;
  } catch {
    return null;
  }
}
