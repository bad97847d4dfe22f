export { inputSignature } from "./input-signature.js";
export { outputSignature } from "./output-signature.js";
