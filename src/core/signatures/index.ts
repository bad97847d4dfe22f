export { inputSignature, UNKNOWN_SIGNATURE } from "./input-signature.js";
export {
  INPUT_SIGNATURE_LIMITS,
  MAX_UNION_MEMBERS,
  OUTPUT_SIGNATURE_LIMITS,
  type SignatureLimits,
} from "./limits.js";
export { outputSignature } from "./output-signature.js";
