/**
 * The change-signature refactor (edit_change_signature): plan a new
 * parameter list for a function and the rewrite of every call, then stage
 * the plan.
 *
 * @module
 */
export { planChangeSignature, SIGNATURE_LANGUAGES, stageChangeSignature } from "./signature.ts";
export type {
  ChangeSignatureOptions,
  FunctionDecl,
  Param,
  ParamEntry,
  ParamList,
  ParamMapping,
  ParamRole,
  SignatureCallSite,
  SignaturePlan,
} from "./signature.ts";
