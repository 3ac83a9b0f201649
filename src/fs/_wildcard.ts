/**
 * Wildcard patterns (tool globs and `.gitignore` lines) as a small
 * nondeterministic automaton run by keeping the set of live states (Thompson's
 * simulation): matching a path costs at most (path length × pattern length)
 * steps whatever the pattern, where a backtracking `RegExp` built from
 * `*a*a*a…*b` takes exponential time on a name that almost matches.
 *
 * Paths are read by code point; no part of a pattern but `**` crosses a `/`.
 *
 * @module
 */

/** Whether one character (a code point) is accepted. */
export type CharTest = (c: string) => boolean;

interface State {
  /** Moves that consume no character. */
  eps: number[];
  /** Moves that consume one character accepted by `test`. */
  edges: { test: CharTest; to: number }[];
}

/** A compiled wildcard pattern: ask it with {@linkcode WildcardBuilder.build}'s `test`. */
export interface WildcardMatcher {
  /** Whether the whole of `path` matches. */
  test(path: string): boolean;
  /** States of the automaton (bounded by the pattern's length; for tests). */
  readonly size: number;
}

const notSlash: CharTest = (c) => c !== "/";
const anyChar: CharTest = () => true;

/** Builds a matcher piece by piece, left to right. */
export class WildcardBuilder {
  #states: State[] = [{ eps: [], edges: [] }];
  #at = 0;
  /** The literal text every match starts with (what was added before the first wildcard). */
  #head = "";
  /** Whether a wildcard was added (else the pattern is literal text). */
  #wildSeen = false;
  /** The literal text every match ends with so far (what was added since the last wildcard). */
  #tail = "";
  /** The longest run of literal text between wildcards: every match contains it. */
  #longest = "";

  #add(): number {
    this.#states.push({ eps: [], edges: [] });
    return this.#states.length - 1;
  }

  #edge(test: CharTest): void {
    const next = this.#add();
    this.#states[this.#at]!.edges.push({ test, to: next });
    this.#at = next;
  }

  /** A piece that is not literal text: what matches no longer starts or ends with known text. */
  #wild(): void {
    this.#wildSeen = true;
    this.#tail = "";
  }

  /** One character accepted by `test` (`?`, a bracket expression). */
  char(test: CharTest): this {
    this.#wild();
    this.#edge(test);
    return this;
  }

  /** A literal string. */
  literal(text: string): this {
    for (const c of text) this.#edge((x) => x === c);
    if (!this.#wildSeen) this.#head += text;
    this.#tail += text;
    if (this.#tail.length > this.#longest.length) this.#longest = this.#tail;
    return this;
  }

  /** Any single character but `/` (`?`). */
  one(): this {
    return this.char(notSlash);
  }

  /** Any run of characters within one name (`*`), or of any characters at all when `crossSlash` (`**`). */
  star(crossSlash = false): this {
    this.#wild();
    const loop = this.#add();
    this.#states[this.#at]!.eps.push(loop);
    this.#states[loop]!.edges.push({ test: crossSlash ? anyChar : notSlash, to: loop });
    this.#at = loop;
    return this;
  }

  /** Zero or more whole folders (`**` followed by `/`): nothing, or anything that ends with `/`. */
  folders(): this {
    this.#wild();
    const end = this.#add();
    const loop = this.#add();
    const from = this.#states[this.#at]!;
    from.eps.push(end, loop);
    this.#states[loop]!.edges.push({ test: anyChar, to: loop }, { test: (c) => c === "/", to: end });
    this.#at = end;
    return this;
  }

  /** One of several literal strings (`{a,b}`). */
  oneOf(options: string[]): this {
    this.#wild();
    const start = this.#at;
    const end = this.#add();
    for (const option of options) {
      const first = this.#add();
      this.#states[start]!.eps.push(first);
      this.#at = first;
      for (const c of option) this.#edge((x) => x === c);
      this.#states[this.#at]!.eps.push(end);
    }
    this.#at = end;
    return this;
  }

  /**
   * The matcher of everything added so far (anchored at both ends). A path that does not start and end
   * with the pattern's literal head and tail, or lacks its longest literal run, is refused before the
   * automaton runs (most paths, for most `.gitignore` lines: `*.log`, `node_modules`, `.env.*`), and a
   * pattern that is all literal is a comparison.
   */
  build(): WildcardMatcher {
    const states = this.#states;
    const accept = this.#at;
    const head = this.#head;
    const tail = this.#tail;
    if (!this.#wildSeen) return { test: (path) => path === head, size: states.length };
    const inner = this.#longest;
    const fits = (path: string) =>
      path.length >= head.length + tail.length && path.startsWith(head) && path.endsWith(tail) &&
      path.includes(inner);
    return { test: (path) => fits(path) && run(states, accept, path), size: states.length };
  }
}

/** Thompson's simulation: the set of live states after each character; never more than one visit per state per step. */
function run(states: State[], accept: number, path: string): boolean {
  const mark = new Uint32Array(states.length);
  let step = 1;
  let live: number[] = [];
  // The state and every state its moves without a character reach (a loop, not recursion: a pattern of
  // thousands of stars chains as many of those moves).
  const enter = (into: number[], first: number): void => {
    const todo = [first];
    while (todo.length > 0) {
      const s = todo.pop()!;
      if (mark[s] === step) continue;
      mark[s] = step;
      into.push(s);
      for (const e of states[s]!.eps) todo.push(e);
    }
  };
  enter(live, 0);
  for (const c of path) {
    step++;
    const next: number[] = [];
    for (const s of live) {
      for (const edge of states[s]!.edges) if (edge.test(c)) enter(next, edge.to);
    }
    if (next.length === 0) return false;
    live = next;
  }
  return live.includes(accept);
}

/**
 * A bracket expression starting at `pattern[i]` ("["), as git reads one: `!` or `^` negates, a `]` right after
 * the opening (or the negation) is literal, `\` escapes, `a-z` is a range. It never matches `/`.
 *
 * @param pattern The whole pattern.
 * @param i Index of the "[".
 * @returns The test and the index after the closing "]", or null when it is not closed.
 */
export function bracketAt(pattern: string, i: number): { test: CharTest; end: number } | null {
  const chars = Array.from(pattern.slice(i + 1));
  let j = 0;
  const negate = chars[0] === "!" || chars[0] === "^";
  if (negate) j++;
  const items: { c: string; escaped: boolean }[] = [];
  let consumed = -1;
  for (let first = true; j < chars.length; j++, first = false) {
    const c = chars[j]!;
    if (c === "]" && !first) {
      consumed = j + 1;
      break;
    }
    if (c === "\\" && j + 1 < chars.length) items.push({ c: chars[++j]!, escaped: true });
    else items.push({ c, escaped: false });
  }
  if (consumed === -1) return null;
  const ranges: [number, number][] = [];
  for (let k = 0; k < items.length; k++) {
    const lo = items[k]!.c.codePointAt(0)!;
    const dash = items[k + 1];
    if (dash && dash.c === "-" && !dash.escaped && k + 2 < items.length) {
      ranges.push([lo, items[k + 2]!.c.codePointAt(0)!]);
      k += 2;
    } else ranges.push([lo, lo]);
  }
  const end = i + 1 + chars.slice(0, consumed).join("").length;
  const test: CharTest = (c) => {
    if (c === "/") return false;
    const code = c.codePointAt(0)!;
    return ranges.some(([lo, hi]) => code >= lo && code <= hi) !== negate;
  };
  return { test, end };
}
