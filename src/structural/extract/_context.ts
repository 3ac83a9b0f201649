/**
 * One extraction as its checks and writers see it (`Context`: the file, its
 * bindings, the family's rules, the statements, their control and data flow,
 * the new name), with what every refusal shares: its details and the line of
 * an offset, and the names that flow out as return values.
 *
 * @module
 */
import type { FileBindings } from "../../syntax/bindings.ts";
import type { DataFlow, Variable } from "../shared/data_flow.ts";
import type { FamilyRules, FlowFacts, LineRange, StatementRun } from "../shared/statement_ranges.ts";
import { lineOf } from "../shared/statement_ranges.ts";
import type { SourceFile } from "../edit/source.ts";

/** What the checks and the builder share about one extraction. */
export interface Context {
  /** The source file. */
  file: SourceFile;
  /** Its bindings. */
  fb: FileBindings;
  /** The language family's rules. */
  rules: FamilyRules;
  /** The statements extracted. */
  run: StatementRun;
  /** What they do to control flow. */
  facts: FlowFacts;
  /** What flows in and out of them. */
  flow: DataFlow;
  /** "lines a-b of "path"", for messages. */
  where: string;
  /** The new function's name. */
  name: string;
  /** The calling tool. */
  tool: string;
  /** The range asked for. */
  range: LineRange;
}

/** Details every refusal carries. */
export function details(ctx: Context, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { path: ctx.file.rel, start_line: ctx.range.start_line, end_line: ctx.range.end_line, ...more };
}

/** 1-based line of an offset. */
export function at(ctx: Context, offset: number): number {
  return lineOf(ctx.file.text, offset);
}

/** The names that flow out as return values (Rust: those declared inside; the others are passed `&mut`). */
export function outputsOf(ctx: Context): Variable[] {
  return ctx.flow.variables.filter((v) => v.output && (!ctx.rules.outputsByReference || v.declared));
}
