/**
 * What a profile states when it says nothing: no module system, ECMAScript's
 * identifier rules (the rule graver has always applied to a language without
 * its own), no definition keywords, patterns tried as written, no refactors
 * beyond the file-local ones. Private to `src/languages/`: each profile
 * module builds on it, so a new language states only what differs.
 *
 * @module
 */
import type {
  FlowRules,
  FunctionFacts,
  IdentifierRules,
  LanguageProfile,
  ModuleSystemFacts,
  PatternWrapper,
} from "./types.ts";

/**
 * A set of the space-separated words of a list.
 *
 * @param list Words separated by single spaces.
 * @returns The set.
 */
export function words(list: string): ReadonlySet<string> {
  return new Set(list.split(" "));
}

/** Identifiers of letters, digits and `_` (no `$`). */
export const WORD_IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/** ECMAScript's identifiers and reserved words: also the default of a language with no rules of its own. */
export const ECMA_IDENTIFIERS: IdentifierRules = {
  pattern: /^[\p{L}_$][\p{L}\p{N}_$]*$/u,
  reserved: words(
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await",
  ),
};

/** The pattern as written, then with a `;` after it: where code with no wrapper of its own is tried. */
export const AS_WRITTEN: readonly PatternWrapper[] = [{ prefix: "", suffix: "" }, {
  prefix: "",
  suffix: ";",
}];

/** Functions with no facts of their own: no constructor, one blank line between definitions. */
export const PLAIN_FUNCTIONS: FunctionFacts = {
  constructorName: null,
  constructorsNeedNew: false,
  checksArity: false,
  keywordArguments: false,
  writesTypes: false,
  docstrings: false,
  protocolMethods: null,
  rootClass: null,
  thisParameter: false,
  restParameterLast: false,
  topLevelBlankLines: 1,
  memberLookupCalls: [],
  harmlessDecorators: new Set(),
};

/** The module-system facts a system states only when they hold. */
export const PLAIN_MODULES: Pick<
  ModuleSystemFacts,
  | "globImportsReexport"
  | "itemPaths"
  | "namespaceImportsHoldNames"
  | "ambientAugmentation"
  | "importsAreReadOnly"
  | "privatePrefix"
  | "typeCheckingImports"
  | "exportList"
  | "futureImports"
  | "commonJs"
  | "fileMoveBreaks"
  | "importsInClassBodies"
  | "bareSpecifiersNameProjectModules"
  | "sampleImport"
  | "defaultExports"
  | "namedExamples"
> = {
  globImportsReexport: false,
  itemPaths: false,
  namespaceImportsHoldNames: false,
  ambientAugmentation: false,
  importsAreReadOnly: false,
  privatePrefix: null,
  typeCheckingImports: false,
  exportList: null,
  futureImports: false,
  commonJs: false,
  fileMoveBreaks: () => null,
  importsInClassBodies: false,
  bareSpecifiersNameProjectModules: false,
  sampleImport: null,
  defaultExports: false,
  namedExamples: false,
};

/** The flow facts a family states only when they hold (the node-type sets it always states). */
export const PLAIN_FLOW: Pick<
  FlowRules,
  | "typedSignatures"
  | "blockValues"
  | "resultField"
  | "namedResults"
  | "bodyStatements"
  | "selfType"
  | "labelledJumps"
  | "receiverParameters"
  | "explicitSelf"
  | "classReceiverMethods"
  | "outputsByReference"
  | "delegatesInAsyncGenerators"
  | "argumentsObject"
  | "assignmentDeclares"
> = {
  typedSignatures: false,
  blockValues: false,
  resultField: "return_type",
  namedResults: false,
  bodyStatements: null,
  selfType: null,
  labelledJumps: true,
  receiverParameters: false,
  explicitSelf: false,
  classReceiverMethods: new Set(),
  outputsByReference: false,
  delegatesInAsyncGenerators: true,
  argumentsObject: false,
  assignmentDeclares: false,
};

/** The required part of a profile: its id and name; everything else defaults. */
type ProfileSpec = Pick<LanguageProfile, "id" | "displayName"> & Partial<LanguageProfile>;

/**
 * A profile from the facts that differ from the defaults.
 *
 * @param spec The id, the display name and the facts that differ.
 * @returns The whole profile.
 */
export function defineProfile(spec: ProfileSpec): LanguageProfile {
  return {
    moduleSystem: null,
    identifiers: ECMA_IDENTIFIERS,
    definitionKeywords: {},
    patternWrappers: AS_WRITTEN,
    flow: null,
    refactors: {
      extractFunction: false,
      inline: false,
      changeSignature: false,
      moveDeclarationInto: [],
      renameFromEdits: false,
    },
    functions: PLAIN_FUNCTIONS,
    targetVersion: null,
    indentUnit: null,
    commentStarts: null,
    skippableComments: { line: [], block: [] },
    textNodes: [],
    closedNodes: {},
    hashLinesArePreprocessor: false,
    macroBodiesAreText: false,
    searchTypeAliases: [],
    claimsHeader: null,
    ...spec,
  };
}
