/**
 * Member presence: whether a class has a member of a name — declares it (a field, a method, a parameter
 * property `constructor(private x)`, a name bound in the class body) or uses it through `this.x`, `self.x`,
 * `super.x` or `const { x } = this` in its own code. A dynamic language's attribute is often only assigned in a
 * method (`self.x = 1`), and a base's code may use what a subclass sets: along a class hierarchy, each of these
 * is one attribute, which the reference search and the rename's hierarchy check treat as one.
 *
 * @module
 */
import { classScopeOf, type FileBindings, type Occurrence, type Scope } from "../../syntax/bindings.ts";

/** How a class has a member: where it declares it, or else where its own code first uses it. */
export interface MemberPresence {
  /** The declaration, or the first use through `this`/`self`/`super`. */
  occurrence: Occurrence;
  /** Declared in the class (a field, a method, a parameter property, a class-level name), not only used. */
  declared: boolean;
}

/**
 * Whether an occurrence uses a member of its own class's instance: `this.x`/`self.x`, `super.x`, or the key of
 * `const { x } = this`.
 *
 * @param o An occurrence.
 * @returns True for such a use.
 */
export function usesOwnMember(o: Occurrence): boolean {
  return o.kind === "member_this" || o.thisKey === true || o.viaSuper === true;
}

/**
 * Whether a class has the member `name`, declared or used by its own code.
 *
 * @example
 * ```ts ignore
 * memberPresence(fb, cls, "_fp"); // { occurrence: <self._fp = outfp>, declared: false } in email's Generator
 * ```
 *
 * @param fb The file's bindings.
 * @param cls A class scope of that file.
 * @param name The member's name.
 * @returns The declaration (or the first use), or null when the class has no such member.
 */
export function memberPresence(fb: FileBindings, cls: Scope, name: string): MemberPresence | null {
  let used: Occurrence | null = null;
  for (const o of fb.occurrences) {
    if (o.name !== name) continue;
    if (
      (o.kind === "member_definition" && o.scope === cls) ||
      (o.kind === "definition" && o.binding?.scope === cls) ||
      (o.parameterProperty === true && classScopeOf(o.scope) === cls)
    ) return { occurrence: o, declared: true };
    if (!used && usesOwnMember(o) && classScopeOf(o.scope) === cls) used = o;
  }
  return used ? { occurrence: used, declared: false } : null;
}
