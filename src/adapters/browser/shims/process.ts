/**
 * A minimal `process` for bundling memfs into browsers and workerd (inject
 * it with esbuild's `--inject`). It deliberately has no `versions.node`:
 * web-tree-sitter would take its Node path (`createRequire`) and fail.
 *
 * @module
 */

/** Only what memfs calls: cwd, uid/gid, platform, env, nextTick, warnings. */
export const process = {
  platform: "linux",
  env: {} as Record<string, string>,
  argv: [] as string[],
  version: "",
  versions: {} as Record<string, string>,
  browser: true,
  cwd(): string {
    return "/";
  },
  getuid(): number {
    return 0;
  },
  getgid(): number {
    return 0;
  },
  nextTick(fn: (...args: unknown[]) => void, ...args: unknown[]): void {
    queueMicrotask(() => fn(...args));
  },
  emitWarning(): void {},
  on(): void {},
  off(): void {},
  exit(): never {
    throw new Error("Cannot exit: there is no process in this runtime");
  },
};

/** Some dependencies call `setImmediate`: run it as a macrotask. */
export function setImmediate(
  fn: (...args: unknown[]) => void,
  ...args: unknown[]
): ReturnType<typeof setTimeout> {
  return setTimeout(() => fn(...args), 0);
}

/** The counterpart of {@linkcode setImmediate}. */
export function clearImmediate(id: ReturnType<typeof setTimeout>): void {
  clearTimeout(id);
}
