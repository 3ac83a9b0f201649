/**
 * A Rust file shaped like ripgrep's grep-printer `standard.rs`: a config with
 * a `Default` impl, and a generic impl block with lifetimes and bounds holding
 * many methods (written for the tests; the shape is what matters: a long impl
 * header every method's name path starts with).
 *
 * @module
 */

/** The header of the big impl block, as its name (and every method's name path prefix). */
export const IMPL_HEADER = "impl<'a, M: Matcher, W: WriteColor> StandardImpl<'a, M, W>";

/**
 * The file's text.
 *
 * @param methods How many methods the generic impl holds.
 * @returns Rust source.
 */
export function implRichRust(methods: number): string {
  const out = [
    "#[derive(Clone, Debug)]",
    "struct Config {",
    "    heading: bool,",
    "}",
    "",
    "impl Default for Config {",
    "    fn default() -> Config {",
    "        Config { heading: false }",
    "    }",
    "}",
    "",
    `${IMPL_HEADER} {`,
  ];
  for (let i = 0; i < methods; i++) {
    out.push(
      `    /// Write part ${i} of a line.`,
      `    fn write_part_${i}(&self, bytes: &[u8]) -> io::Result<()> {`,
      `        if bytes.len() > ${i} {`,
      "            self.wtr().borrow_mut().write_all(bytes)?;",
      "        }",
      "        Ok(())",
      "    }",
      "",
    );
  }
  out.pop();
  out.push("}", "", "#[cfg(test)]", "mod tests {", "    #[test]", "    fn writes() {}", "}", "");
  return out.join("\n");
}
