/**
 * graver: a WebAssembly-first sandboxed edit runtime for coding agents. Every
 * edit is staged in memory, checked, and committed all-or-nothing, guarded by
 * content hashes; tree-sitter grammars run as WASM in every runtime.
 *
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({ "/hello.txt": "hi\n" }) });
 * const res = await ws.call("read_file", { path: "hello.txt" });
 * assert.ok(res.ok);
 * assert.equal(res.data.content, "1\thi");
 * ```
 *
 * @module
 */
export { errnoError, isRecoverable, RecoverableError } from "./errors.ts";
export type {
  ErrorCode,
  ErrorPayload,
  RecoverableErrorOptions,
  ShownLines,
  SuggestedCall,
} from "./errors.ts";
export { TOOL_KINDS } from "./tool_kinds.ts";
export type { ToolKind } from "./tool_kinds.ts";
export { MemoryTelemetry, NOOP_TELEMETRY } from "./telemetry.ts";
export type { Attributes, TelemetrySink } from "./telemetry.ts";
export { createWorkspace, Workspace } from "./workspace.ts";
export type { SyntaxGuardMode, WorkspaceOptions } from "./workspace.ts";
export {
  BackendFs,
  createMapBackend,
  createMemoryBackend,
  DEFAULT_PROTECTED_PATHS,
  unifiedDiff,
  versionOf,
} from "./fs/mod.ts";
export type {
  Backend,
  BackendStats,
  CommittedChange,
  LockOptions,
  ProcessIdentity,
  Version,
} from "./fs/mod.ts";
export { GRAMMARS, Grammars, outlineOf } from "./syntax/mod.ts";
export type { Outline, Parsing, SymbolInfo, SymbolRange, WasmInput, WasmLoader } from "./syntax/mod.ts";
export { detectFormat, parseEdits } from "./text/mod.ts";
export type { EditBlock, EditFormat, ParsedEdits } from "./text/mod.ts";
export { reindent } from "./structural/mod.ts";
export { Ledger } from "./guards/mod.ts";
export type { FileState, FileView, LedgerData, ReadGuardMode, ReadGuardOptions } from "./guards/mod.ts";
export { Compass, loadPersona } from "./compass/mod.ts";
export type {
  CompassMode,
  CompassOptions,
  CompassSetting,
  CompassStats,
  CounterMeter,
  Persona,
  ReminderProvider,
  ReminderProviderInfo,
  RoutingDecision,
} from "./compass/mod.ts";
export {
  applyEdits,
  catalogueEntries,
  createFile,
  DEFAULT_READ_TOKENS,
  definitionGate,
  deleteFile,
  describeTools,
  dispatch,
  editApplyNode,
  editCapabilities,
  editChangeSignature,
  editDryRun,
  editExtractFunction,
  editFile,
  editInline,
  editInsertAtAnchor,
  editMoveDecl,
  editRenameSymbol,
  editSafeTextPatch,
  exportCatalogue,
  findReferencesTool,
  findSymbol,
  findTool,
  insertCode,
  listFiles,
  MAX_BODY_LINES,
  MAX_BODY_LINES_TOTAL,
  MAX_EDIT_TEXT,
  MAX_PLAN_OPS,
  MAX_READ_LINES,
  MAX_SEARCH_FILE_BYTES,
  MAX_SEARCH_FILES,
  MAX_SYMBOLS,
  moveFile,
  openEditStream,
  outline,
  readFile,
  removeSymbol,
  replaceSymbol,
  resultSchema,
  STREAM_TOOLS,
  TOOLS,
  validateArgs,
  writeFile,
} from "./tools/mod.ts";
export type {
  ApplyEditsArgs,
  CallInProgress,
  Capability,
  CatalogueEntry,
  CatalogueFormat,
  CompactSymbol,
  CreateFileArgs,
  DefinitionGateMode,
  DeleteFileArgs,
  DispatchOptions,
  EditApplyNodeArgs,
  EditCapabilitiesArgs,
  EditChangeSignatureArgs,
  EditDryRunArgs,
  EditExtractFunctionArgs,
  EditFileArgs,
  EditInlineArgs,
  EditInsertAtAnchorArgs,
  EditMoveDeclArgs,
  EditSafeTextPatchArgs,
  EditStream,
  EditStreamHost,
  EditStreamOptions,
  FindSymbolArgs,
  HandlerResult,
  InsertCodeArgs,
  JsonSchema,
  LanguageCapabilities,
  ListFilesArgs,
  MoveFileArgs,
  OutlineArgs,
  PipelineStep,
  PlanOp,
  PlanOpResult,
  ReadBudget,
  ReadFileArgs,
  Reminder,
  RemoveSymbolArgs,
  ReplaceSymbolArgs,
  StepResult,
  StreamEvent,
  StreamRefusal,
  StreamTool,
  TextHunk,
  ToolBehaviour,
  ToolContext,
  ToolDefinition,
  ToolFailure,
  ToolHost,
  ToolResult,
  ToolSuccess,
  WriteFileArgs,
} from "./tools/mod.ts";
export { applyWithReflection, reflectionFeedback } from "./surfaces/reflection.ts";
export type {
  ApplyWithReflectionOptions,
  ReflectionAttempt,
  ReflectionResult,
} from "./surfaces/reflection.ts";
